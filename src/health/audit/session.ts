import type { Context } from '../../core/context.js';
import { budgetNotice } from '../../automation/budget-notice.js';
import { parseDay } from '../dates.js';
import { parseRegion } from '../region.js';
import { SEVERITIES, severityRank, type Finding, type Severity } from '../types.js';
import { loadAuditConfig, onlyChecks, type AuditConfig } from './config.js';
import { describeReads, leastCost } from './reads.js';
import { runAudit, type AuditResult } from './run.js';

/** The flags audit, watch and digest share (src/commands/audit/flags.ts). */
export interface AuditFlags {
  config?: string;
  checks?: string[];
  asOf?: string;
  region?: string;
}

/** The settings of a run: the file (or defaults), narrowed by --checks, the region from --region. All checked before anything is read. */
export function settingsOf(f: AuditFlags): { cfg: AuditConfig; asOf: string | undefined } {
  let cfg = loadAuditConfig(f.config);
  cfg = onlyChecks(cfg, f.checks ?? []);
  if (f.region !== undefined) cfg = { ...cfg, phoneRegion: parseRegion(f.region, '--region') };
  return { cfg, asOf: f.asOf === undefined ? undefined : parseDay(f.asOf, '--as-of') };
}

/**
 * One audit as a command runs it: what it will read and its least cost on stderr before the first
 * read (against what is left today, as every bulk run says it), then the checks, then a summary line
 * on a terminal.
 */
export async function auditWithNotice(ctx: Context, cfg: AuditConfig, asOf: string | undefined): Promise<AuditResult> {
  const http = await ctx.http();
  const before = http.governor.stats.acquired;
  const result = await runAudit(ctx, {
    cfg,
    asOf,
    onPlan: (reads) => {
      ctx.info(`audit reads: ${describeReads(reads)}`);
      budgetNotice(ctx, http, { tokens: leastCost(reads), atLeast: true, continueWith: 'run the audit again' });
    },
  });
  const r = result.read;
  const read = [['deals', r.deals], ['persons', r.persons], ['organizations', r.organizations], ['activities not done', r.activities]].filter(([, n]) => Number(n) > 0).map(([k, n]) => `${n} ${k}`);
  ctx.info(`audit as of ${result.asOf}: ${summary(result.findings)} in ${read.join(', ') || 'no records'}; ${http.governor.stats.acquired - before} tokens spent.`);
  return result;
}

/** `12 findings (3 error, 7 warning, 2 info)`. */
export function summary(findings: readonly Finding[]): string {
  if (!findings.length) return 'no findings';
  const by = [...SEVERITIES].reverse().map((s) => [s, findings.filter((f) => f.severity === s).length] as const).filter(([, n]) => n > 0);
  return `${findings.length} finding${findings.length === 1 ? '' : 's'} (${by.map(([s, n]) => `${n} ${s}`).join(', ')})`;
}

/** Findings at or above a severity (the --strict gate, watch's --fail-on). */
export const atOrAbove = (findings: readonly Finding[], s: Severity): Finding[] => findings.filter((f) => severityRank(f.severity) >= severityRank(s));

/** The columns of a finding in a table and TSV (JSON carries every member, the key too). */
export const FINDING_COLUMNS = ['severity', 'check', 'kind', 'ids', 'name', 'message'];
export const FINDING_FIELDS = [...FINDING_COLUMNS, 'key'];
