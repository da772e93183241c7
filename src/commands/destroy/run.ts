import type { Context } from '../../core/context.js';
import { CliError, UsageError } from '../../core/errors.js';
import type { Result } from '../../apply-engine/result.js';
import { kinds } from '../../apply-engine/kinds.js';
import { topoOrder } from '../../apply-engine/order.js';
import { removalPlan, removalResult, removeEntry, type RemoveOutcome } from '../../apply-engine/remove.js';
import { RESULT_COLUMNS, resultLine, resultRow, resultSummary, widthsOf } from '../../apply-engine/report.js';
import { reportWriter } from '../../output/report.js';
import { WriteRecorder } from '../../automation/record-write.js';
import { lockState, readState, writeState, type FixtureState } from '../../apply-engine/state.js';

export interface DestroyOptions {
  state?: string;
  dryRun: boolean;
}

/** Dependents first: the reverse of the order apply created them in. */
export function destroyOrder(state: FixtureState): string[] {
  const names = Object.keys(state.records);
  return topoOrder(names, (n) => state.records[n]!.dependsOn ?? []).order.reverse();
}

export async function runDestroy(ctx: Context, o: DestroyOptions): Promise<void> {
  if (!o.state) throw new UsageError('--state: is required (the state file crmctl apply wrote)', 'Example: crmctl destroy --state fixtures/.crmctl-state.json --yes');
  const statePath = o.state;
  const lines = new WeakMap<object, string>();
  const line = (row: object) => lines.get(row)!;
  const unlock = o.dryRun ? () => undefined : await lockState(statePath);
  try {
    const state = readState(statePath, { mustExist: true });
    const order = destroyOrder(state);
    for (const n of order) if (!kinds().has(state.records[n]!.kind)) throw new UsageError(`--state ${statePath}: record ${n} has an unknown kind ${JSON.stringify(state.records[n]!.kind)}`);
    const w = widthsOf(order.map((n) => ({ kind: state.records[n]!.kind, name: n })));
    if (!order.length) {
      await reportWriter(ctx, { columns: RESULT_COLUMNS, line }).end({ text: `Nothing to destroy: ${statePath} holds no records.`, json: { dry_run: o.dryRun, state: statePath, cost: 0, results: [] } });
      return;
    }
    if (o.dryRun) {
      const out = reportWriter(ctx, { columns: ['action', 'kind', 'name', 'id', 'note', 'cost'], line });
      const rows = order.map((n) => {
        const e = state.records[n]!;
        const p = removalPlan(kinds().get(e.kind)!, e);
        return { action: p.action, kind: e.kind, name: n, id: e.id, cost: p.cost ?? 0, note: p.note };
      });
      const cost = rows.reduce((s, r) => s + r.cost, 0);
      for (const r of rows) {
        lines.set(r, `${r.action.padEnd(10)} ${r.kind.padEnd(w.kind)}  ${r.name.padEnd(w.name)}  ${[`id ${r.id}`, r.note, r.cost ? `(cost ${r.cost})` : ''].filter(Boolean).join('  ')}`.trimEnd());
        await out.row(r);
      }
      const restores = rows.filter((r) => r.action === 'restore').length;
      await out.end({ text: `Plan: ${rows.filter((r) => r.action === 'delete').length} to delete${restores ? `, ${restores} to restore` : ''}. Total cost: ${cost}.\nDry run: nothing was sent.`, json: { dry_run: true, state: statePath, cost, actions: rows } });
      return;
    }

    await ctx.confirm(`Delete the ${order.length} record${order.length === 1 ? '' : 's'} listed in ${statePath}?`);
    const results: Result[] = [];
    const out = reportWriter(ctx, { columns: RESULT_COLUMNS, line });
    // Each delete (or value put back) is an item of one run (kind destroy): `crmctl undo` creates them again.
    const recorder = new WriteRecorder(ctx, { kind: 'destroy', describe: `records of ${statePath}`, input: { state: statePath } });
    for (const name of order) {
      const entry = state.records[name]!;
      let outcome: RemoveOutcome;
      try {
        outcome = await removeEntry(ctx, name, entry, recorder.send);
      } catch (err) {
        await recorder.end('', err);
        if (!(err instanceof CliError)) throw err;
        throw new CliError(`${entry.kind} ${name} (id ${entry.id}): ${err.message}`, err.exitCode, [err.hint, `Records already removed are gone from ${statePath}; run destroy again to continue.`].filter(Boolean).join('\n'));
      }
      delete state.records[name];
      writeState(statePath, state);
      const r: Result = removalResult(name, entry, outcome);
      results.push(r);
      const row = resultRow(r);
      lines.set(row, resultLine(r, w));
      await out.row(row);
    }
    await recorder.end(resultSummary(results, statePath).split('\n')[0]!);
    await out.end({ text: resultSummary(results, statePath), json: { dry_run: false, state: statePath, cost: results.reduce((s, r) => s + r.cost, 0), results: results.map(resultRow) } });
  } finally {
    unlock();
  }
}
