/**
 * The vendor's word that an operation is past its time. Derived for each operation row from the
 * vendor's deprecations (src/api/deprecations.ts), never written per row; --help, docs, MCP tool
 * descriptions, `crmctl doctor --deprecated` and the notice a run prints all read it.
 */
export interface Deprecation {
  /** The vendor deprecated it (YYYY-MM-DD). */
  since: string;
  /** From this day no fixes, no SLA, and it "may be changed or removed without further notice" (YYYY-MM-DD). */
  outOfSupport: string;
  /** The v2 way as a command line (`crmctl persons list`), when there is one. */
  use?: string;
}

/** "out of support since 2026-08-01; use crmctl persons list (v2)": the status and the way out, for help and docs. */
export function deprecationPhrase(d: Deprecation): string {
  return `a v1 endpoint out of support since ${d.outOfSupport} (deprecated ${d.since}); ${d.use ? `use ${d.use} (v2)` : 'no v2 form exists'}`;
}

/** The one line a run says on stderr before it first calls such an operation (without the "notice: " prefix). */
export function deprecationNotice(op: { method: string; path: string; deprecated?: Deprecation }): string | undefined {
  const d = op.deprecated;
  if (!d) return undefined;
  return `${op.method} ${op.path} is a v1 endpoint out of support since ${d.outOfSupport}; ${d.use ? `use ${d.use} (v2)` : 'no v2 form exists'}`;
}
