import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/** ../shared beside the repo: reference data we test against and never copy. */
export const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));
export const INTERFACE_MD = `${SHARED}spec/service-interface.md`;
export const OPENAPI_DIR = `${SHARED}reference/openapi/`;

/** The ../shared files each kind of contract test reads (paths relative to ../shared). */
export const NEEDS_INTERFACE = ['spec/service-interface.md'] as const;
export const NEEDS_OPENAPI = ['reference/openapi/pipedrive-v1.yaml', 'reference/openapi/pipedrive-v2.yaml'] as const;
export const NEEDS_VENDOR_INDEX = ['reference/openapi/index-v1.txt', 'reference/openapi/index-v2.txt'] as const;

/** The text every skipped contract suite prints; .ci/run greps a user's clone's run for it. */
export const SHARED_SKIP_MARK = 'CONTRACT TEST SKIPPED';

/**
 * A describe() that needs reference files from ../shared. A user's clone has no ../shared, so there the
 * suite is skipped loudly: its body is never collected (so nothing reads a missing file while collecting),
 * the reason is printed on stderr, and the one skipped test is named after the reason, so both the run's
 * log and its report say what did not run and why.
 */
export function describeWithShared(files: readonly string[], name: string, body: () => void): void {
  const gone = files.filter((f) => !existsSync(`${SHARED}${f}`));
  if (gone.length === 0) {
    describe(name, body);
    return;
  }
  const reason = `${SHARED_SKIP_MARK} (../shared is missing ${gone.join(', ')}): ${name}`;
  console.warn(reason);
  describe.skip(name, () => {
    it.skip(reason, () => undefined);
  });
}

export interface InterfaceOperation {
  area: string;
  method: string;
  path: string;
  /** The Cost column when the table has one and states a number. */
  cost?: number;
}

/** Every row of the endpoint tables under "## Endpoints" of the service interface, with its area heading. */
export function interfaceOperations(): InterfaceOperation[] {
  const text = readFileSync(INTERFACE_MD, 'utf8');
  const start = text.indexOf('\n## Endpoints');
  const end = text.indexOf('\n## ', start + 5);
  const section = text.slice(start, end);
  const out: InterfaceOperation[] = [];
  let area = '';
  let sub = '';
  let costColumn = -1;
  for (const line of section.split('\n')) {
    const h = /^### (.+)$/.exec(line);
    if (h) {
      area = h[1]!.trim();
      sub = '';
      continue;
    }
    const label = /^([A-Z][A-Za-z ]+):\s*$/.exec(line);
    if (label) sub = label[1]!;
    const header = /^\|\s*Method\s*\|/.exec(line);
    if (header) costColumn = line.split('|').map((c) => c.trim()).indexOf('Cost');
    const row = /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*([^|\s]+)\s*\|/.exec(line);
    if (row) {
      const cell = costColumn > 0 ? line.split('|').map((c) => c.trim())[costColumn] : undefined;
      const cost = cell !== undefined && /^\d+$/.test(cell) ? Number(cell) : undefined;
      out.push({ area: sub ? `${area} / ${sub}` : area, method: row[1]!, path: row[2]!, cost });
    }
  }
  return out;
}
