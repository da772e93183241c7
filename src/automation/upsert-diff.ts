import { normKey, normPhone } from './upsert-key.js';

/**
 * What an upsert changes on a record it matched: the members of the prepared body whose value the
 * record does not already have. Only the members the input gives are compared (an object member by
 * the keys it gives, so a record's extra keys never count as a difference); contact lists (emails,
 * phones, im) gain the values they lack and keep the others, so an upsert never drops an address.
 */
export interface Difference {
  /** The PATCH body: changed members only (custom fields: only the changed keys). */
  patch: Record<string, unknown>;
  /** Names of the changed members, for the output (custom fields by name when known). */
  changed: string[];
}

const CONTACT_LISTS = new Set(['emails', 'phones', 'im']);

export function differences(body: Record<string, unknown>, record: Record<string, unknown>, nameOf: (key: string) => string | undefined = () => undefined): Difference {
  const patch: Record<string, unknown> = {};
  const changed: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (k === 'custom_fields' && v && typeof v === 'object' && !Array.isArray(v)) {
      const have = record.custom_fields && typeof record.custom_fields === 'object' ? (record.custom_fields as Record<string, unknown>) : {};
      const out: Record<string, unknown> = {};
      for (const [ck, cv] of Object.entries(v)) {
        if (same(cv, customValue(have, ck))) continue;
        out[ck] = cv;
        const base = ck.replace(/_(currency|until)$/, '');
        const label = nameOf(ck) ?? nameOf(base) ?? ck;
        if (!changed.includes(label)) changed.push(label);
      }
      // A monetary value goes with its currency (and a range with its end), even if only one changed.
      for (const ck of Object.keys(out)) {
        for (const companion of [`${ck}_currency`, `${ck}_until`, ck.replace(/_(currency|until)$/, '')]) {
          if (companion !== ck && companion in v && !(companion in out)) out[companion] = (v as Record<string, unknown>)[companion];
        }
      }
      if (Object.keys(out).length) patch.custom_fields = out;
      continue;
    }
    if (CONTACT_LISTS.has(k) && Array.isArray(v)) {
      const merged = mergedContacts(v, record[k], k === 'phones' ? normPhone : normKey);
      if (merged) {
        patch[k] = merged;
        changed.push(k);
      }
      continue;
    }
    if (same(v, record[k])) continue;
    patch[k] = v;
    changed.push(k);
  }
  return { patch, changed };
}

/** The record's list with the given values it lacks added (a phone compared by its digits), or undefined when none is missing. */
function mergedContacts(given: unknown[], have: unknown, norm: (v: unknown) => string): unknown[] | undefined {
  const current = Array.isArray(have) ? (have as unknown[]).map((x) => (typeof x === 'string' ? { value: x } : x)) : [];
  const textOf = (x: unknown) => norm(x && typeof x === 'object' ? (x as { value?: unknown }).value : x);
  const known = new Set(current.map(textOf));
  const missing = given.filter((g) => !known.has(textOf(g)));
  if (!missing.length) return undefined;
  // A new value marked primary takes that place; the record's others stop being primary.
  const takesPrimary = missing.some((m) => (m as { primary?: unknown })?.primary === true);
  const kept = current.map((c) => (takesPrimary && c && typeof c === 'object' ? { ...(c as object), primary: false } : c));
  return [...kept, ...missing];
}

/** A custom value of a record by key; a monetary or range value the service nests ({value, currency, until}) is read through. */
function customValue(have: Record<string, unknown>, key: string): unknown {
  if (key in have) {
    const v = have[key];
    return v && typeof v === 'object' && !Array.isArray(v) && 'value' in v ? (v as { value: unknown }).value : v;
  }
  const m = /^(.*)_(currency|until)$/.exec(key);
  const base = m ? have[m[1]!] : undefined;
  return base && typeof base === 'object' ? (base as Record<string, unknown>)[m![2]!] : undefined;
}

/** Whether the record's value already is the given one (see the module comment for lists and objects). */
export function same(given: unknown, have: unknown): boolean {
  if (given === null || given === undefined || given === '') return have === null || have === undefined || have === '' || (Array.isArray(have) && !have.length);
  if (Array.isArray(given)) {
    if (!Array.isArray(have)) return false;
    if (given.every(isScalar) && have.every(isScalar)) {
      const a = given.map(scalar).sort(), b = have.map(scalar).sort();
      return a.length === b.length && a.every((x, i) => x === b[i]);
    }
    return given.length === have.length && given.every((g, i) => same(g, have[i]));
  }
  if (typeof given === 'object') {
    if (!have || typeof have !== 'object' || Array.isArray(have)) return false;
    return Object.entries(given).every(([k, v]) => same(v, (have as Record<string, unknown>)[k]));
  }
  // A linked record the service shows as an object ({id, name}, {value, ...}) compares by its id or value.
  if (have && typeof have === 'object' && !Array.isArray(have)) {
    const o = have as { id?: unknown; value?: unknown };
    return same(given, o.id ?? o.value);
  }
  return isScalar(have) && scalar(given) === scalar(have);
}

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Numbers and numeric text alike; a time HH:MM is HH:MM:00 (the service adds the seconds). */
function scalar(v: unknown): string {
  const s = String(v).trim();
  if (/^([01]\d|2[0-3]):[0-5]\d$/.test(s)) return `${s}:00`;
  return typeof v === 'number' ? String(v) : s !== '' && Number.isFinite(Number(s)) && /^-?\d+(\.\d+)?$/.test(s) ? String(Number(s)) : s;
}
