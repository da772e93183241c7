import type { FixtureRecord } from './parse.js';

// Records that refer to others by name rather than by ${ref:…}: a filter's `where` names fields, so
// the fields of its item type that the files hold are created (or changed) before the filter, and
// its account checks wait for them instead of refusing a field the same run is about to create.

/** The field kind whose records the files may hold, per filter type (activity fields have no create). */
export const FILTER_FIELD_KIND: Readonly<Record<string, string>> = { deals: 'deal-field', people: 'person-field', org: 'org-field', products: 'product-field' };

/** Names of the records `rec` refers to by name. */
export function namedDependencies(rec: FixtureRecord, records: Iterable<FixtureRecord>): string[] {
  if (rec.kind.kind !== 'filter' || (rec.spec.where === undefined && rec.spec.or_where === undefined)) return [];
  const fieldKind = FILTER_FIELD_KIND[String(rec.spec.type)];
  if (!fieldKind) return [];
  const out: string[] = [];
  for (const r of records) if (r.kind.kind === fieldKind) out.push(r.name);
  return out;
}
