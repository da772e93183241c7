import { executePlan } from '../../apply-engine/execute.js';
import { WriteRecorder } from '../../automation/record-write.js';
import { checkSavedPlan, hasChanges, labelOf, type UnknownUsers, planConfig, planDocument, planLines, planSummaryLine, pruneKinds, readSavedPlan } from '../../apply-engine/config/session.js';
import type { FixtureRecord } from '../../apply-engine/parse.js';
import { RESULT_COLUMNS, resultLine, resultRow, resultsJson, widthsOf } from '../../apply-engine/report.js';
import type { Result } from '../../apply-engine/result.js';
import type { Context } from '../../core/context.js';
import { formatFor } from '../../output/format.js';
import { writeOut } from '../../output/render.js';
import { reportWriter } from '../../output/report.js';

export interface ConfigApplyOptions {
  files: string[];
  records: FixtureRecord[];
  issues: Array<{ field: string; rule: string }>;
  prune: string[];
  dryRun: boolean;
  /** A plan saved by crmctl plan --out: carried out only if the files and the account are as it read them. */
  plan?: string;
  /** Loading into a sandbox: unknown users stand for its admin (sandbox start --from). */
  unknownUsers?: UnknownUsers;
}

/**
 * Configuration files: plan against the live account (natural keys), print the plan, carry out
 * exactly that plan. Nothing is remembered: a re-run (after a failure or a kill) reads the account
 * again and continues from what it finds, so it converges.
 */
export async function applyConfig(ctx: Context, o: ConfigApplyOptions): Promise<void> {
  const saved = o.plan ? readSavedPlan(o.plan) : undefined;
  const prune = pruneKinds(saved ? saved.prune : o.prune);
  const cp = await planConfig(ctx, o.records, o.issues, { env: ctx.env, prune, files: o.files, ...(o.unknownUsers ? { unknownUsers: o.unknownUsers } : {}) });
  if (saved) checkSavedPlan(saved, cp, o.plan!);
  const text = formatFor(ctx, 'report') === 'text' && !ctx.globals.query;
  if (text) for (const l of planLines(cp)) await writeOut(ctx.io.stdout, `${l}\n`);
  if (o.dryRun || !hasChanges(cp.plan)) {
    if (text) await writeOut(ctx.io.stdout, `${planSummaryLine(cp)}${o.dryRun ? '\nDry run: nothing was sent.' : ''}\n`);
    else await writeOut(ctx.io.stdout, `${JSON.stringify({ dry_run: o.dryRun, ...planDocument(cp) }, null, 2)}\n`);
    return;
  }
  const deletes = cp.plan.actions.filter((a) => a.type === 'delete').length;
  if (deletes) await ctx.confirm(`Delete ${deletes} record${deletes === 1 ? '' : 's'} of the account that the files do not hold (--prune ${cp.prune.join(',')})?`);

  const label = (name: string) => cp.labels.get(name) ?? name;
  const lines = new WeakMap<object, string>();
  const out = reportWriter(ctx, { columns: RESULT_COLUMNS, line: (row: object) => lines.get(row)! });
  const w = widthsOf(cp.plan.actions.map((a) => ({ kind: a.kind.kind, name: labelOf(cp, a.name) })));
  const results: Result[] = [];
  const done = new Set<string>();
  // Each write is an item of one run (kind apply): `crmctl undo` takes the whole apply back.
  const recorder = new WriteRecorder(ctx, { kind: 'apply', describe: o.files.join(' '), input: { files: o.files } });
  try {
    await executePlan(cp.plan, {
      http: await ctx.http(),
      reader: ctx,
      send: recorder.send,
      state: cp.state,
      env: ctx.env,
      ...(cp.users ? { users: cp.users } : {}),
      report: async (r) => {
        results.push(r);
        done.add(r.name);
        if (r.action === 'unchanged') return;
        const row = resultRow({ ...r, name: label(r.name) });
        lines.set(row, resultLine({ ...r, name: labelOf(cp, r.name) }, w));
        await out.row(row);
      },
    });
  } catch (err) {
    const left = cp.plan.actions.filter((a) => !done.has(a.name) && a.type !== 'unchanged' && a.type !== 'keep');
    if (left.length) ctx.warn(`not done (${left.length}): ${left.map((a) => `${a.type} ${a.kind.kind} ${labelOf(cp, a.name)}`).join('; ')}`);
    await recorder.end('', err);
    throw err;
  }
  const n = (t: Result['action']) => results.filter((r) => r.action === t).length;
  const cost = results.reduce((s, r) => s + r.cost, 0);
  const summary = `Done: ${n('created')} created, ${n('updated')} updated, ${n('replaced')} replaced, ${n('deleted')} deleted, ${n('unchanged')} unchanged. Cost: ${cost} (and ${cp.live.cost} to read).`;
  await recorder.end(summary);
  const json = resultsJson(results, '');
  await out.end({ text: summary, json: { ...(json as object), state: null, read_cost: cp.live.cost } });
}
