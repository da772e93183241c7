import { LINK_COUNTS } from '../../automation/merge-keep.js';
import { checkReader, readAll } from '../../entry/prepare.js';
import type { Context } from '../../core/context.js';
import { ValidationError } from '../../core/errors.js';
import { settingsOf } from '../../health/audit/session.js';
import { planDedupe, planText, withSurvivors, type DedupeKind, type KeepRule } from '../../health/dedupe-plan.js';
import { renderDocument } from '../../output/report.js';

export interface DedupeFlags {
  /** Absent: a person picks each group's survivor on a terminal (the command refuses it elsewhere); a dry run keeps the oldest. */
  keep?: KeepRule;
  similarity?: string;
  config?: string;
  region?: string;
  dryRun: boolean;
  state?: string;
  resume: boolean;
  newRun: boolean;
}

export async function runDedupe(ctx: Context, kind: DedupeKind, flags: DedupeFlags): Promise<void> {
  const { cfg } = settingsOf({ config: flags.config, region: flags.region });
  const own = kind === 'persons' ? cfg.duplicatePersons : cfg.duplicateOrganizations;
  let threshold = own.nameSimilarity;
  if (flags.similarity !== undefined) {
    const n = Number(flags.similarity);
    if (!Number.isFinite(n) || n < 0.5 || n > 1) throw new ValidationError([{ field: '--similarity', rule: `must be a number from 0.5 to 1 (got ${JSON.stringify(flags.similarity)})` }]);
    threshold = n;
  }
  const { budgetNotice } = await import('../../automation/budget-notice.js');
  budgetNotice(ctx, await ctx.http(), { tokens: 10, per: 'a page of 500 records', continueWith: 'run it again' });
  const table = kind === 'persons' ? (await import('../../api/operations/persons.js')).personOps : (await import('../../api/operations/organizations.js')).organizationOps;
  const op = table.list;
  const records: Array<Record<string, unknown> & { id: number; name: string; add_time: string }> = [];
  // With the counts of what a merge moves (same cost a page): the plan's cost of keeping for the undo, and its files line.
  for await (const r of readAll(ctx, op, { query: { include_fields: [...LINK_COUNTS[kind]] } })) records.push(r as (typeof records)[number]);
  const { fieldCatalog } = await import('../../names/catalog.js');
  const catalog = await fieldCatalog(checkReader(ctx), kind === 'persons' ? 'person' : 'organization', ctx);
  const names = new Map(catalog.custom.map((f) => [f.key, f.name]));
  const settings = { match: own.match, threshold, region: cfg.phoneRegion };
  const picking = !flags.dryRun && flags.keep === undefined;
  // Picked on a terminal: the most complete record of each group is the default.
  let plan = planDedupe(kind, records, flags.keep ?? (picking ? 'most-complete' : 'oldest'), settings, names);
  if (picking && plan.groups.length) {
    const { pickSurvivors } = await import('../../prompts/survivor.js');
    const byId = new Map(records.map((r) => [r.id, r]));
    plan = withSurvivors(plan, await pickSurvivors(ctx, plan, byId), byId);
  }
  if (!flags.dryRun) {
    const { runDedupeWrite } = await import('../../health/dedupe-write.js');
    const input = { keep: flags.keep ?? 'picked', match: own.match, threshold, region: cfg.phoneRegion ?? null };
    await runDedupeWrite(ctx, plan, { get: table.get, merge: table.merge }, input, { state: flags.state ?? `${kind}.dedupe-state.ndjson`, resume: flags.resume, newRun: flags.newRun });
    return;
  }
  await renderDocument(ctx, { text: planText(plan), json: { dry_run: true, ...plan } as unknown as Record<string, unknown>, columns: ['kind', 'keep', 'records', 'merges', 'cost'] });
}
