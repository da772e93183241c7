import type { Context } from '../../core/context.js';
import { CliError, UsageError } from '../../core/errors.js';
import type { Result } from '../../apply-engine/execute.js';
import { kinds } from '../../apply-engine/kinds.js';
import { topoOrder } from '../../apply-engine/order.js';
import { removeEntry } from '../../apply-engine/remove.js';
import { resultLine, resultSummary, widthsOf } from '../../apply-engine/report.js';
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
  const json = ctx.globals.output === 'json';
  const out = (s: string) => ctx.io.stdout.write(`${s}\n`);
  const unlock = o.dryRun ? () => undefined : lockState(statePath);
  try {
    const state = readState(statePath, { mustExist: true });
    const order = destroyOrder(state);
    for (const n of order) if (!kinds().has(state.records[n]!.kind)) throw new UsageError(`--state ${statePath}: record ${n} has an unknown kind ${JSON.stringify(state.records[n]!.kind)}`);
    const w = widthsOf(order.map((n) => ({ kind: state.records[n]!.kind, name: n })));
    if (!order.length) {
      if (json) out(JSON.stringify({ dry_run: o.dryRun, state: statePath, cost: 0, results: [] }, null, 2));
      else out(`Nothing to destroy: ${statePath} holds no records.`);
      return;
    }
    if (o.dryRun) {
      const rows = order.map((n) => {
        const e = state.records[n]!;
        const removal = kinds().get(e.kind)!.remove;
        return { action: removal ? 'delete' : 'forget', kind: e.kind, name: n, id: e.id, cost: removal?.op.cost ?? 0, note: removal ? (removal.verb === 'deleted' ? '' : removal.verb) : 'no delete operation; only forgotten' };
      });
      const cost = rows.reduce((s, r) => s + r.cost, 0);
      if (json) {
        out(JSON.stringify({ dry_run: true, state: statePath, cost, actions: rows }, null, 2));
        return;
      }
      for (const r of rows) out(`${r.action.padEnd(10)} ${r.kind.padEnd(w.kind)}  ${r.name.padEnd(w.name)}  ${[`id ${r.id}`, r.note, r.cost ? `(cost ${r.cost})` : ''].filter(Boolean).join('  ')}`.trimEnd());
      out(`Plan: ${rows.filter((r) => r.action === 'delete').length} to delete. Total cost: ${cost}.`);
      out('Dry run: nothing was sent.');
      return;
    }

    await ctx.confirm(`Delete the ${order.length} record${order.length === 1 ? '' : 's'} listed in ${statePath}?`);
    const http = await ctx.http();
    const results: Result[] = [];
    for (const name of order) {
      const entry = state.records[name]!;
      let outcome;
      try {
        outcome = await removeEntry(http, name, entry);
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
        throw new CliError(`${entry.kind} ${name} (id ${entry.id}): ${err.message}`, err.exitCode, [err.hint, `Records already removed are gone from ${statePath}; run destroy again to continue.`].filter(Boolean).join('\n'));
      }
      delete state.records[name];
      writeState(statePath, state);
      const cost = kinds().get(entry.kind)!.remove?.op.cost ?? 0;
      const r: Result =
        outcome.status === 'removed'
          ? { action: 'deleted', kind: entry.kind, name, id: entry.id, note: outcome.verb === 'deleted' ? undefined : outcome.verb, cost }
          : outcome.status === 'gone'
            ? { action: 'deleted', kind: entry.kind, name, id: entry.id, note: 'already gone (404)', cost }
            : { action: 'forgotten', kind: entry.kind, name, id: entry.id, note: outcome.why, cost: 0 };
      results.push(r);
      if (!json) out(resultLine(r, w));
    }
    if (json) out(JSON.stringify({ dry_run: false, state: statePath, cost: results.reduce((s, r) => s + r.cost, 0), results }, null, 2));
    else out(resultSummary(results, statePath));
  } finally {
    unlock();
  }
}
