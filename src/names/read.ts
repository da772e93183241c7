import type { FieldCatalog, FieldInfo } from './catalog.js';

// Records as people read them: custom values under their field names, options as labels, monetary
// values with their currency. v2 records keep custom values inside `custom_fields`; v1 records (leads)
// as top-level hash keys; both are read here.

type Rec = Record<string, unknown>;

/** The custom values of a record, keyed by hash (v2 `custom_fields`, or the top-level hash keys of v1). */
export function rawCustomValues(cat: FieldCatalog, record: Rec): Rec {
  const inner = record.custom_fields;
  if (inner && typeof inner === 'object' && !Array.isArray(inner)) return inner as Rec;
  const out: Rec = {};
  for (const f of cat.custom) {
    if (f.key in record) out[f.key] = record[f.key];
    for (const s of ['_currency', '_until']) if (`${f.key}${s}` in record) out[`${f.key}${s}`] = record[`${f.key}${s}`];
  }
  return out;
}

/** Does the record hold an amount of a monetary custom field without its currency (kept so by the service)? */
export function lacksCurrency(cat: FieldCatalog, record: unknown): boolean {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return false;
  const values = rawCustomValues(cat, record as Rec);
  return cat.custom.some((f) => f.type === 'monetary' && values[f.key] !== undefined && values[f.key] !== null && !values[`${f.key}_currency`]);
}

/** An option value as its label: an id, or the `{id, label}` object that include_option_labels gives. */
function label(cat: FieldCatalog, f: FieldInfo, v: unknown): unknown {
  if (v && typeof v === 'object' && 'label' in v) return (v as { label: unknown }).label;
  return cat.labelOf(f.key, v) ?? v;
}

/**
 * One custom value as a named record carries it: option labels, `{ value, currency }` for money,
 * `{ value, until }` for ranges, anything else as the service gave it. `currency`: the account's, for
 * an amount stored without one (an export names it, so the file imports elsewhere as the service showed it).
 */
export function namedValue(cat: FieldCatalog, f: FieldInfo, values: Rec, currency?: string): unknown {
  const v = values[f.key];
  if (v === undefined || v === null) return v ?? null;
  switch (f.type) {
    case 'enum': return label(cat, f, v);
    case 'set': return (Array.isArray(v) ? v : [v]).map((x) => label(cat, f, x));
    case 'monetary': return { value: v, currency: values[`${f.key}_currency`] || currency || null };
    case 'daterange': case 'timerange': return { value: v, until: values[`${f.key}_until`] ?? null };
    default: return v;
  }
}

/** One custom value as a table cell: labels joined, "5000 EUR", "2026-01-01/2026-02-01". */
export function cellValue(cat: FieldCatalog, f: FieldInfo, values: Rec): unknown {
  const v = namedValue(cat, f, values);
  if (v === null || v === undefined) return v;
  if (f.type === 'set' && Array.isArray(v)) return v.join(', ');
  if (f.type === 'monetary') {
    const m = v as { value: unknown; currency: unknown };
    return m.currency ? `${String(m.value)} ${String(m.currency)}` : m.value;
  }
  if (f.type === 'daterange' || f.type === 'timerange') {
    const r = v as { value: unknown; until: unknown };
    return r.until ? `${String(r.value)}/${String(r.until)}` : r.value;
  }
  return v;
}

/**
 * The record's own members, then each custom value (hash keys, `custom_fields`) placed under its
 * field's name by `place`. A custom field named like a member of the record keeps the member; its
 * value goes under "<name> (custom)".
 */
function byName(cat: FieldCatalog, record: unknown, place: (out: Rec, name: string, f: FieldInfo, value: unknown) => void, currency?: string): unknown {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return record;
  const rec = record as Rec;
  const values = rawCustomValues(cat, rec);
  const hashKeys = new Set(cat.custom.flatMap((f) => [f.key, `${f.key}_currency`, `${f.key}_until`]));
  const out: Rec = {};
  for (const [k, v] of Object.entries(rec)) if (k !== 'custom_fields' && !hashKeys.has(k)) out[k] = v;
  for (const f of cat.custom) {
    if (f.key in values) place(out, f.name in out ? `${f.name} (custom)` : f.name, f, namedValue(cat, f, values, currency));
  }
  return out;
}

/** The record keyed by field names (for `--names`): custom values as the web app names them, with option labels. */
export function namedRecord(cat: FieldCatalog, record: unknown): unknown {
  return byName(cat, record, (out, name, _f, v) => {
    out[name] = v;
  });
}

/** The record with table cells for the named custom fields added under their names (for table, TSV, CSV). */
export function withCustomCells(cat: FieldCatalog, record: unknown, fields: readonly FieldInfo[]): unknown {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return record;
  const values = rawCustomValues(cat, record as Rec);
  const out: Rec = { ...(record as Rec) };
  for (const f of fields) out[f.name] = cellValue(cat, f, values) ?? null;
  return out;
}

/**
 * The record as an export's CSV row holds it (and import reads back): custom values as columns named
 * like their fields, options as labels (several joined with ", "), a monetary field's currency in
 * "<name> currency" and a range's end in "<name> until" (the headers import maps to the companion keys);
 * `currency` names the account's for an amount stored without one (namedValue).
 */
export function csvRecord(cat: FieldCatalog, record: unknown, currency?: string): unknown {
  return byName(cat, record, (out, name, f, v) => {
    if (f.type === 'set') out[name] = Array.isArray(v) ? v.join(', ') : v;
    else if (f.type === 'monetary') {
      out[name] = (v as { value?: unknown } | null)?.value ?? null;
      out[`${name} currency`] = (v as { currency?: unknown } | null)?.currency ?? null;
    } else if (f.type === 'daterange' || f.type === 'timerange') {
      out[name] = (v as { value?: unknown } | null)?.value ?? null;
      out[`${name} until`] = (v as { until?: unknown } | null)?.until ?? null;
    } else out[name] = v;
  }, currency);
}
