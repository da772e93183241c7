import { callOperation, recordsOf } from '../api/call.js';
import type { HttpClient } from '../http/client.js';
import type { KindDef } from './kinds.js';
import type { FixtureRecord } from './parse.js';
import { tokensOf } from './refs.js';
import { stableJson, type StateEntry } from './state.js';
import type { Prior, Touch } from './touches.js';
import { checkParams } from './validate.js';

/**
 * The touch of a record when it changes one the fixtures did not create. A target written as
 * `${ref:...}` is a record of the fixtures (a setting of a role they create): it goes away with
 * them, so there is nothing to keep.
 */
export function foreignTouch(rec: FixtureRecord): Touch | undefined {
  const touch = rec.kind.touches;
  if (!touch) return undefined;
  const raw = 'param' in touch.target ? rec.parents[touch.target.param] : rec.spec[touch.target.spec];
  const own = typeof raw === 'string' && tokensOf(raw).tokens.some((t) => t.type === 'ref');
  return own ? undefined : touch;
}

/** Reads the value a step is about to change (before its create is sent). */
export async function readPrior(http: HttpClient, touch: Touch, params: Record<string, unknown>, spec: Record<string, unknown>): Promise<Prior> {
  const { data } = checkParams(touch.read.params, touch.readParams(params, spec));
  const { envelope } = await callOperation(http, touch.read, { params: data });
  return touch.pick(recordsOf(touch.read, envelope), params, spec);
}

export interface RestorePlan {
  /** False when the value is already the one before apply. */
  send: boolean;
  /** "role assignment of user 3 (Sam Seller): role 6 -> 3" */
  note: string;
  cost: number | null;
}

/**
 * What putting the prior value back will do, without doing it (destroy --dry-run, plan costs).
 * Undefined when the state keeps no usable prior value: the kind's own removal applies then.
 */
export function restorePlan(kind: KindDef, entry: StateEntry): RestorePlan | undefined {
  const touch = kind.touches;
  if (!touch || !entry.prior || entry.prior.before === null || entry.prior.before === undefined) return undefined;
  const { before, what } = entry.prior;
  const after = touch.after(entry.params ?? {}, entry.spec);
  if (stableJson(before) === stableJson(after)) return { send: false, note: `${what}: ${touch.unit}${String(before)} as before apply (nothing to send)`, cost: 0 };
  return { send: true, note: `${what}: ${touch.unit}${String(after)} -> ${String(before)}`, cost: touch.restore.cost };
}

/** Puts back the value a step changed on a record the fixtures did not create (`plan` from restorePlan). */
export async function restorePrior(http: HttpClient, kind: KindDef, entry: StateEntry & { prior: Prior }, plan: RestorePlan): Promise<{ note: string; cost: number }> {
  const touch = kind.touches!;
  if (!plan.send) return { note: plan.note, cost: 0 };
  const call = touch.restoreCall(entry.prior, entry.params ?? {}, entry.spec);
  const params = checkParams(touch.restore.params, call.params).data;
  await callOperation(http, touch.restore, { params, body: call.body });
  return { note: plan.note, cost: touch.restore.cost ?? 0 };
}
