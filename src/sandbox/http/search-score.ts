// Shared by the v2 search handlers (leads, persons, projects): how a text matches a term.

/** Custom field types the service searches (vendor OpenAPI, `fields=custom_fields` of the searches). */
export const SEARCHABLE_CUSTOM_TYPES = new Set(['address', 'varchar', 'text', 'varchar_auto', 'double', 'monetary', 'phone']);

/** Note contents are HTML; search their text. */
export const stripHtml = (s: string): string => s.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * Score of one text against the term: exact (case-insensitive) 1; otherwise prefix 0.8, contained
 * 0.5, none 0. With exact_match only whole-value matches count.
 */
export function score(text: string, term: string, exact: boolean): number {
  const t = text.toLowerCase(), q = term.toLowerCase();
  if (t === q) return 1;
  if (exact) return 0;
  if (t.startsWith(q)) return 0.8;
  return t.includes(q) ? 0.5 : 0;
}
