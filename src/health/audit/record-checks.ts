import { checkPhone, emailProblem } from '../contacts.js';
import { dateDiff, dayOf, daysBetween, msOf } from '../dates.js';
import type { ActivityRecord, DealRecord, OrganizationRecord, PersonRecord, RecordKind } from '../types.js';
import type { AuditEnv, FieldRule } from './env.js';

// The checks that look at one record at a time, run as each page arrives (nothing is kept but the
// findings), so an audit of 50k deals holds one page of deals in memory.

/** Added after the audit's today (--as-of a past day): the record did not exist yet, so nothing is wrong with it. */
export const notYet = (r: { add_time: string }, env: AuditEnv): boolean => dayOf(msOf(r.add_time)) > env.today;

export function inspectDeal(d: DealRecord, env: AuditEnv): void {
  if (notYet(d, env)) return;
  const name = d.title;
  if (env.on('missing-currency')) {
    if (typeof d.value === 'number' && d.value !== 0 && !d.currency) {
      env.emit({ check: 'missing-currency', kind: 'deal', ids: [d.id], name, message: `value ${d.value} has no currency`, key: `missing-currency|deal|${d.id}|value` });
    }
    moneyWithoutCurrency('deal', d.id, name, d.custom_fields, env);
  }
  if (d.status !== 'open') return;
  const stage = env.stages.get(d.stage_id);
  const where = stage ? ` in ${stage.name}` : '';
  if (env.on('no-next-activity') && !env.planned.has(d.id) && daysBetween(msOf(d.add_time), env.nowMs) >= env.cfg.noNextActivity.minAgeDays) {
    env.emit({ check: 'no-next-activity', kind: 'deal', ids: [d.id], name, message: `open${where} with no activity planned`, key: `no-next-activity|deal|${d.id}` });
  }
  if (env.on('stale-deals')) {
    const limit = env.staleDays.get(d.stage_id) ?? env.cfg.staleDeals.days;
    const changed = msOf(d.update_time ?? d.add_time);
    const idle = daysBetween(changed, env.nowMs);
    if (Number.isFinite(changed) && idle >= limit) {
      env.emit({ check: 'stale-deals', kind: 'deal', ids: [d.id], name, message: `not changed for ${idle} days${where} (limit ${limit})`, key: `stale-deals|deal|${d.id}` });
    }
  }
  if (env.on('close-date-past') && d.expected_close_date) {
    const late = dateDiff(d.expected_close_date, env.today);
    if (late > env.cfg.closeDatePast.graceDays) {
      env.emit({ check: 'close-date-past', kind: 'deal', ids: [d.id], name, message: `still open; expected to close on ${d.expected_close_date} (${late} days ago)`, key: `close-date-past|deal|${d.id}|${d.expected_close_date}` });
    }
  }
  if (env.on('empty-fields')) emptyFields('deal', d.id, name, d, env.required.deal, env);
}

export function inspectPerson(p: PersonRecord, env: AuditEnv): void {
  if (notYet(p, env)) return;
  if (env.on('invalid-emails')) {
    for (const e of p.emails ?? []) {
      if (!e?.value) continue;
      const why = emailProblem(e.value);
      if (why) env.emit({ check: 'invalid-emails', kind: 'person', ids: [p.id], name: p.name, message: `e-mail ${JSON.stringify(e.value)}: ${why}`, key: `invalid-emails|person|${p.id}|${e.value}` });
    }
  }
  if (env.on('invalid-phones')) {
    for (const ph of p.phones ?? []) {
      if (!ph?.value) continue;
      const c = checkPhone(ph.value, env.cfg.phoneRegion);
      if (!c.valid) env.emit({ check: 'invalid-phones', kind: 'person', ids: [p.id], name: p.name, message: `phone ${JSON.stringify(ph.value)}: ${c.reason}`, key: `invalid-phones|person|${p.id}|${ph.value}` });
    }
  }
  if (env.on('missing-currency')) moneyWithoutCurrency('person', p.id, p.name, p.custom_fields, env);
  if (env.on('empty-fields')) emptyFields('person', p.id, p.name, p, env.required.person, env);
}

export function inspectOrganization(o: OrganizationRecord, env: AuditEnv): void {
  if (notYet(o, env)) return;
  if (env.on('missing-currency')) moneyWithoutCurrency('organization', o.id, o.name, o.custom_fields, env);
  if (env.on('empty-fields')) emptyFields('organization', o.id, o.name, o, env.required.organization, env);
}

/** An activity not done (the audit reads only those): overdue when its due date is past by more than `days`. */
export function inspectActivity(a: ActivityRecord, env: AuditEnv): void {
  if (a.done) return;
  if (a.deal_id) env.planned.add(a.deal_id);
  if (!env.on('overdue-activities') || !a.due_date) return;
  const late = dateDiff(a.due_date, env.today);
  if (late > env.cfg.overdueActivities.days) {
    env.emit({ check: 'overdue-activities', kind: 'activity', ids: [a.id], name: a.subject, message: `${a.type} due ${a.due_date}, ${late} days overdue${a.deal_id ? ` (deal ${a.deal_id})` : ''}`, key: `overdue-activities|activity|${a.id}|${a.due_date}` });
  }
}

/**
 * Monetary custom fields keep the amount under their key and the currency under `<key>_currency`
 * (interface, "Custom fields"); some answers nest both as `{value, currency}`. An amount whose
 * currency is empty cannot be summed or converted.
 */
function moneyWithoutCurrency(kind: RecordKind, id: number, name: string, custom: Record<string, unknown> | null | undefined, env: AuditEnv): void {
  if (!custom) return;
  for (const [key, v] of Object.entries(custom)) {
    let amount: unknown;
    let currency: unknown;
    if (v && typeof v === 'object' && !Array.isArray(v) && 'currency' in v && 'value' in v) {
      ({ value: amount, currency } = v as { value: unknown; currency: unknown });
    } else if (`${key}_currency` in custom) {
      amount = v;
      currency = custom[`${key}_currency`];
    } else continue;
    if (typeof amount === 'number' && amount !== 0 && !currency) {
      const field = env.fieldNames.get(key) ?? key;
      env.emit({ check: 'missing-currency', kind, ids: [id], name, message: `${field} ${amount} has no currency`, key: `missing-currency|${kind}|${id}|${key}` });
    }
  }
}

function emptyFields(kind: RecordKind, id: number, name: string, rec: Record<string, unknown>, rules: FieldRule[], env: AuditEnv): void {
  const empty = rules.filter((r) => isEmpty(valueAt(rec, r.recordKey)));
  if (!empty.length) return;
  const names = empty.map((r) => r.name);
  env.emit({ check: 'empty-fields', kind, ids: [id], name, message: `empty: ${names.join(', ')}`, key: `empty-fields|${kind}|${id}|${empty.map((r) => r.code).join(',')}` });
}

function valueAt(rec: Record<string, unknown>, path: string): unknown {
  if (path.startsWith('custom_fields.')) return (rec.custom_fields as Record<string, unknown> | null | undefined)?.[path.slice('custom_fields.'.length)];
  return rec[path];
}

/** Nothing in it: null, blank text, an empty list, or a list of contact values that are all blank. 0 is a value. */
export function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.every((x) => isEmpty(x && typeof x === 'object' && 'value' in x ? (x as { value: unknown }).value : x));
  if (typeof v === 'object') return Object.values(v).every((x) => x === null || x === undefined || x === '');
  return false;
}
