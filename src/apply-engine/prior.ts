import { callOperation } from '../api/call.js';
import { prepare, read, type Reader } from '../entry/prepare.js';
import type { KindDef, Send } from './kinds.js';
import type { FixtureRecord } from './parse.js';
import { tokensOf } from './refs.js';
import { stableJson, type StateEntry } from './state.js';
import type { Prior, Touch } from './touches.js';

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
export async function readPrior(reader: Reader, touch: Touch, params: Record<string, unknown>, spec: Record<string, unknown>): Promise<Prior> {
  return touch.pick(await read(reader, touch.read, { params: asText(touch.readParams(params, spec)) }), params, spec);
}

/** Path parameters as a command line gives them (text); the schemas make numbers where they want them. */
function asText(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === undefined || v === null ? v : String(v)]));
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
export async function restorePrior(reader: Reader, kind: KindDef, entry: StateEntry & { prior: Prior }, plan: RestorePlan, send: Send): Promise<{ note: string; cost: number }> {
  const touch = kind.touches!;
  if (!plan.send) return { note: plan.note, cost: 0 };
  const call = touch.restoreCall(entry.prior, entry.params ?? {}, entry.spec);
  const input = await prepare(reader, touch.restore, { params: asText(call.params), body: call.body }, { naming: 'keys' });
  const http = await reader.http();
  await send(touch.restore, input, () => callOperation(http, touch.restore, input));
  return { note: plan.note, cost: touch.restore.cost ?? 0 };
}
