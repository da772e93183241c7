import { LINK_COUNTS } from '../automation/merge-keep.js';
import { readAll } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { CliError, ValidationError } from '../core/errors.js';
import { redactText } from '../core/redact.js';
import { unknownKeyRule } from '../input/unknown-keys.js';
import { computeMetrics, type Metric } from './analytics/run.js';
import { loadAuditConfig, onlyChecks } from './audit/config.js';
import { atOrAbove, summary } from './audit/session.js';
import { runAudit } from './audit/run.js';
import { parseDay } from './dates.js';
import { parseRegion } from './region.js';
import { planDedupe } from './dedupe-plan.js';
import { HEALTH_TOOLS, type HealthTool } from './mcp-tool-defs.js';
import type { Severity } from './types.js';

/**
 * The calls of the account-health MCP tools (mcp-tool-defs.ts lists them). Each runs the same code as
 * its command (the same reads, so the same costs, through the same entry and governor) and only reads.
 */

type Result = { content: Array<{ type: 'text'; text: string }>; isError?: boolean };
const ok = (v: unknown): Result => ({ content: [{ type: 'text', text: JSON.stringify(v, null, 2) }] });

/** A health tool's call; undefined when `name` is not one of them. */
export async function callHealthTool(ctx: Context, name: string, args: Record<string, unknown>): Promise<Result | undefined> {
  const tool = HEALTH_TOOLS.find((t) => t.name === name);
  if (!tool) return undefined;
  const fail = (message: string): Result => ({ content: [{ type: 'text', text: redactText(message, ctx.knownSecrets()) }], isError: true });
  const known = Object.keys(tool.inputSchema.properties);
  const unknown = Object.keys(args).filter((k) => !known.includes(k));
  if (unknown.length) return fail(`Invalid arguments, nothing was sent:\n${unknown.map((k) => `arguments: ${unknownKeyRule(k, known)}`).join('\n')}`);
  try {
    const problems = argProblems(tool, args);
    if (problems.length) throw new ValidationError(problems);
    if (name === 'account_audit') return ok(await audit(ctx, args));
    if (name === 'pipeline_analytics') return ok(await analytics(ctx, args));
    return ok(await dedupe(ctx, args));
  } catch (err) {
    if (err instanceof ValidationError) return fail(`Invalid arguments, nothing was sent:\n${err.issues.map((i) => `${i.field.replace(/^--/, '').replace(/-/g, '_')}: ${i.rule}`).join('\n')}`);
    if (err instanceof CliError) return fail([err.message, err.hint].filter(Boolean).join('\n'));
    return fail(`unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Types and choices of the arguments, by the tool's own schema (one place says what each takes). */
function argProblems(tool: HealthTool, args: Record<string, unknown>): Array<{ field: string; rule: string }> {
  const out: Array<{ field: string; rule: string }> = [];
  for (const k of tool.inputSchema.required ?? []) if (args[k] === undefined) out.push({ field: k, rule: 'is required' });
  for (const [k, v] of Object.entries(args)) {
    const s = tool.inputSchema.properties[k] as { type: string; enum?: string[]; items?: { enum?: string[] }; minimum?: number; maximum?: number };
    if (s.type === 'string' && typeof v !== 'string') out.push({ field: k, rule: 'must be a string' });
    else if (s.type === 'integer' && (!Number.isInteger(v) || (v as number) < (s.minimum ?? -Infinity) || (v as number) > (s.maximum ?? Infinity))) out.push({ field: k, rule: `must be an integer from ${s.minimum} to ${s.maximum}` });
    else if (s.type === 'array' && (!Array.isArray(v) || v.some((x) => !s.items?.enum?.includes(String(x))))) out.push({ field: k, rule: `must be a list of ${s.items?.enum?.join(', ')}` });
    else if (s.enum && !s.enum.includes(String(v))) out.push({ field: k, rule: `must be one of ${s.enum.join(', ')}` });
  }
  return out;
}

async function audit(ctx: Context, a: Record<string, unknown>) {
  let cfg = onlyChecks(loadAuditConfig(undefined), (a.checks as string[] | undefined) ?? []);
  if (typeof a.region === 'string') cfg = { ...cfg, phoneRegion: parseRegion(a.region, 'region') };
  const asOf = typeof a.as_of === 'string' ? parseDay(a.as_of, 'as_of') : undefined;
  const r = await runAudit(ctx, { cfg, asOf });
  const min = (a.min_severity as Severity | undefined) ?? 'info';
  const wanted = atOrAbove(r.findings, min);
  const limit = typeof a.limit === 'number' ? a.limit : 100;
  return { as_of: r.asOf, summary: summary(r.findings), read: r.read, findings: wanted.slice(0, limit), more: Math.max(0, wanted.length - limit) };
}

async function analytics(ctx: Context, a: Record<string, unknown>) {
  const { results } = await computeMetrics(ctx, [a.metric as Metric], { pipeline: a.pipeline as string | undefined, asOf: a.as_of as string | undefined, from: a.from as string | undefined });
  return results[0];
}

async function dedupe(ctx: Context, a: Record<string, unknown>) {
  const kind = a.kind as 'persons' | 'organizations';
  const cfg = loadAuditConfig(undefined);
  const own = kind === 'persons' ? cfg.duplicatePersons : cfg.duplicateOrganizations;
  const op = kind === 'persons' ? (await import('../api/operations/persons.js')).personOps.list : (await import('../api/operations/organizations.js')).organizationOps.list;
  const records: Array<Record<string, unknown> & { id: number; name: string; add_time: string }> = [];
  for await (const r of readAll(ctx, op, { query: { include_fields: [...LINK_COUNTS[kind]] } })) records.push(r as (typeof records)[number]);
  const plan = planDedupe(kind, records, (a.keep as 'oldest' | 'most-complete' | undefined) ?? 'oldest', { match: own.match, threshold: own.nameSimilarity, region: typeof a.region === 'string' ? parseRegion(a.region, 'region') : cfg.phoneRegion });
  return { dry_run: true, ...plan, groups: plan.groups.slice(0, 50), more_groups: Math.max(0, plan.groups.length - 50) };
}
