import { read, type Reader } from '../entry/prepare.js';
import { NotFoundError } from '../core/errors.js';
import type { Plan } from './plan.js';
import { specHash, stableJson, type FixtureState } from './state.js';

/**
 * A re-apply of fixtures compares the account with what the state remembers: each record the plan
 * would leave unchanged is read (kinds with a get operation), and a field of its spec whose live
 * value differs from the service's answer when apply last wrote it was changed in the account. Such
 * a record becomes an update of those fields (back to the files' values); one that is gone (404)
 * is created again. The comparison is between two answers of the service, so representations
 * (dates, amounts) never differ by form alone. Returns what the reads cost.
 */
export async function checkDrift(plan: Plan, state: FixtureState, reader: Reader): Promise<{ cost: number; reads: number }> {
  let cost = 0;
  let reads = 0;
  for (const action of plan.actions) {
    const { kind, entry } = action;
    if (action.type !== 'unchanged' || !kind.get || !entry || !kind.idParam) continue;
    const params = Object.fromEntries(Object.entries({ ...entry.params, [kind.idParam]: entry.id }).map(([k, v]) => [k, String(v)]));
    reads++;
    cost += kind.get.cost ?? 0;
    let live: unknown;
    try {
      live = await read(reader, kind.get, { params });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      // Deleted in the account: created again (the state's id is gone).
      delete state.records[action.name];
      Object.assign(action, { type: 'create', entry: undefined, changes: [], drift: ['(deleted)'], cost: kind.create.cost ?? 0, costUnstated: kind.create.cost === null });
      continue;
    }
    const before = entry.record as Record<string, unknown> | null;
    const now = live as Record<string, unknown> | null;
    if (!before || !now || typeof before !== 'object' || typeof now !== 'object') continue;
    const drift = Object.keys(entry.spec).filter((k) => k in before && k in now && stableJson(before[k]) !== stableJson(now[k]));
    if (!drift.length) continue;
    // The state now holds the account's values for those fields, so the planned update sends the files' values back.
    const spec = { ...entry.spec, ...Object.fromEntries(drift.map((k) => [k, now[k]])) };
    const updated = { ...entry, spec, specHash: specHash(entry.kind, entry.params, spec), record: { ...before, ...now } };
    state.records[action.name] = updated;
    const replace = !kind.update;
    const op = kind.update ?? kind.create;
    Object.assign(action, { type: replace ? 'replace' : 'update', entry: updated, changes: drift, drift, cost: op.cost ?? 0, costUnstated: op.cost === null });
  }
  plan.cost = plan.actions.reduce((s, a) => s + a.cost, 0);
  plan.costUnstated = plan.actions.some((a) => a.costUnstated);
  return { cost, reads };
}
