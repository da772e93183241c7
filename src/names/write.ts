import type { FieldCatalog, FieldInfo, ItemType } from './catalog.js';

// Custom fields given by name ("Budget=5000 EUR", {"Segment": "Enterprise"}) turned into the keys and
// values the service takes, checked against each field's type before anything is sent.

export interface Issue {
  field: string;
  rule: string;
}

/** Where an item type's writes carry custom values: inside `custom_fields` (v2) or as top-level keys (v1 leads). */
export function placementOf(itemType: ItemType): 'custom_fields' | 'top' {
  return itemType === 'lead' ? 'top' : 'custom_fields';
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const CURRENCY = /^[A-Za-z]{3}$/;

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function number(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : undefined;
}

/** "5000 EUR", "EUR 5000", 5000 with a currency beside it, or { value, currency }. */
function money(v: unknown): { amount: number; currency?: string } | undefined {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as { value?: unknown; amount?: unknown; currency?: unknown };
    const amount = number(o.value ?? o.amount);
    if (amount === undefined) return undefined;
    return { amount, currency: typeof o.currency === 'string' ? o.currency : undefined };
  }
  if (typeof v === 'number') return Number.isFinite(v) ? { amount: v } : undefined;
  if (typeof v !== 'string') return undefined;
  const parts = v.trim().split(/\s+/);
  if (parts.length === 1) {
    const amount = number(parts[0]);
    return amount === undefined ? undefined : { amount };
  }
  if (parts.length !== 2) return undefined;
  const [a, b] = parts as [string, string];
  if (number(a) !== undefined && CURRENCY.test(b)) return { amount: number(a)!, currency: b };
  if (number(b) !== undefined && CURRENCY.test(a)) return { amount: number(b)!, currency: a };
  return undefined;
}

const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : String(v).split(',').map((s) => s.trim()).filter(Boolean));

/**
 * One field's value in the service's form: the members to send (the field's key, and `<key>_currency`
 * of a monetary field, `<key>_until` of a range), or the rule it breaks.
 */
export function valueFor(cat: FieldCatalog, f: FieldInfo, v: unknown): { set: Record<string, unknown> } | { rule: string } {
  if (v === null) return { set: { [f.key]: null } };
  const labels = () => f.options.map((o) => o.label).join(', ');
  switch (f.type) {
    case 'double': case 'int': {
      const n = number(v);
      return n === undefined ? { rule: `must be a number (got ${JSON.stringify(v)})` } : { set: { [f.key]: n } };
    }
    case 'monetary': {
      const m = money(v);
      if (!m) return { rule: `must be an amount and a currency, e.g. "5000 EUR" (got ${JSON.stringify(v)})` };
      if (!m.currency) return { rule: `needs a currency: give the amount and a 3-letter currency code, e.g. "${m.amount} EUR"` };
      return { set: { [f.key]: m.amount, [`${f.key}_currency`]: m.currency.toUpperCase() } };
    }
    case 'enum': {
      const id = cat.optionIdOf(f.key, v);
      return id === undefined ? { rule: `unknown option ${JSON.stringify(v)}; allowed: ${labels()}` } : { set: { [f.key]: id } };
    }
    case 'set': {
      const items = listOf(v);
      if (!items.length) return { rule: `give at least one option (null clears it); allowed: ${labels()}` };
      const bad = items.filter((x) => cat.optionIdOf(f.key, x) === undefined);
      if (bad.length) return { rule: `unknown option${bad.length > 1 ? 's' : ''} ${bad.map((b) => JSON.stringify(b)).join(', ')}; allowed: ${labels()}` };
      return { set: { [f.key]: items.map((x) => cat.optionIdOf(f.key, x)) } };
    }
    case 'date': {
      const s = typeof v === 'string' ? v.trim() : '';
      return isDate(s) ? { set: { [f.key]: s } } : { rule: `must be a date YYYY-MM-DD (got ${JSON.stringify(v)})` };
    }
    case 'daterange': case 'timerange': {
      const [from, until] = typeof v === 'string' ? v.split('/').map((s) => s.trim()) : [];
      const ok = f.type === 'daterange' ? isDate : (s: string) => TIME.test(s);
      return from && until && ok(from) && ok(until) ? { set: { [f.key]: from, [`${f.key}_until`]: until } } : { rule: `must be a range START/END (${f.type === 'daterange' ? 'YYYY-MM-DD/YYYY-MM-DD' : 'HH:MM/HH:MM'})` };
    }
    case 'time': {
      const s = typeof v === 'string' ? v.trim() : '';
      return TIME.test(s) ? { set: { [f.key]: s } } : { rule: `must be a time HH:MM or HH:MM:SS (got ${JSON.stringify(v)})` };
    }
    case 'user': case 'org': case 'people': {
      const n = number(v);
      const what = f.type === 'user' ? 'a user' : f.type === 'org' ? 'an organization' : 'a person';
      return n !== undefined && Number.isInteger(n) && n > 0 ? { set: { [f.key]: n } } : { rule: `must be the id of ${what} (a positive integer; got ${JSON.stringify(v)})` };
    }
    default:
      return typeof v === 'string' || typeof v === 'number' ? { set: { [f.key]: String(v) } } : { rule: `must be text (got ${JSON.stringify(v)})` };
  }
}

/**
 * Custom values given by name (or by hash key) → the members the service takes, keyed by hash. Every
 * problem is an issue naming the input as `label(name)` says (`--field Budget`, `fields.Budget`):
 * an unknown name with the nearest names, an unknown option with the allowed labels, a monetary value
 * without a currency, a bad date or number.
 */
export function customValuesByKey(cat: FieldCatalog, named: Record<string, unknown>, label: (name: string) => string): { values: Record<string, unknown>; issues: Issue[] } {
  const values: Record<string, unknown> = {};
  const issues: Issue[] = [];
  for (const [name, v] of Object.entries(named)) {
    const f = cat.customField(name);
    if (!f) {
      const near = cat.nearestCustom(name);
      const known = cat.custom.map((c) => c.name);
      issues.push({ field: label(name), rule: `unknown ${cat.itemType} custom field "${name.trim()}"${near ? ` (did you mean "${near}"?)` : known.length ? `; known: ${known.join(', ')}` : `; this account has no ${cat.itemType} custom fields`}` });
      continue;
    }
    const r = valueFor(cat, f, v);
    if ('rule' in r) issues.push({ field: label(name), rule: `${f.name} (${f.type}) ${r.rule}` });
    else Object.assign(values, r.set);
  }
  return { values, issues };
}

/** `NAME=VALUE` texts of a repeatable flag → { NAME: VALUE } (the first `=` splits; a later one is part of the value). */
export function parseAssignments(items: readonly string[], flag: string): { named: Record<string, unknown>; issues: Issue[] } {
  const named: Record<string, unknown> = {};
  const issues: Issue[] = [];
  for (const item of items) {
    const at = item.indexOf('=');
    if (at <= 0) {
      issues.push({ field: flag, rule: `must be NAME=VALUE, e.g. ${flag} "Lead score=40" (got ${JSON.stringify(item)})` });
      continue;
    }
    const value = item.slice(at + 1);
    // An empty value clears the field (sent as null).
    named[item.slice(0, at).trim()] = value.trim() === '' ? null : value;
  }
  return { named, issues };
}
