// The service's structured address (organization address, activity location, person postal address):
// one rule for writes and one full form for reads, every part present (null when unknown).
import { r, type Rule } from './rules.js';

export const ADDRESS_PARTS = ['value', 'country', 'admin_area_level_1', 'admin_area_level_2', 'locality', 'sublocality', 'route', 'street_number', 'subpremise', 'postal_code'] as const;

/** An address object of known parts, each a string (empty allowed) or null. */
export const addressRule: Rule = r.object(Object.fromEntries(ADDRESS_PARTS.map((k) => [k, r.nullable(r.string({ empty: true, max: 255 }))])));

/** The full form of a stored address; a plain string (older records) becomes its `value`. */
export function fullAddress(v: unknown): Record<string, unknown> | null {
  if (v === null || v === undefined || v === '') return null;
  const o = typeof v === 'string' ? { value: v } : (v as Record<string, unknown>);
  return Object.fromEntries(ADDRESS_PARTS.map((k) => [k, o[k] ?? null]));
}
