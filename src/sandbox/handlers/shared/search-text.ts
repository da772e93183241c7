// How a record matches a search term across its text members, notes and searchable custom fields: the
// best score wins (a main member counts fully, notes and custom fields a little less), and the matching
// note and custom texts are returned for the result item.
import { score, SEARCHABLE_CUSTOM_TYPES, stripHtml } from '../../http/search-score.js';
import type { SandboxState } from '../../store/state.js';
import { customFields, type FieldEntity } from '../../engine/fields/store.js';

export interface TextSources {
  term: string;
  exact: boolean;
  fields: ReadonlySet<string>;
  /** Main texts (title, name, code, ...) already selected by the caller's `fields`. */
  title: string[];
  /** Secondary texts (emails, phones, address) at 0.9. */
  other?: string[];
  notes?: string[];
  entity?: FieldEntity;
  custom?: Record<string, unknown>;
}

export function searchText(state: SandboxState, s: TextSources): { score: number; custom: string[]; notes: string[] } {
  let best = 0;
  const notes: string[] = [], custom: string[] = [];
  const take = (text: string, weight: number, into?: string[]) => {
    const v = score(text, s.term, s.exact);
    if (v > 0) { best = Math.max(best, v * weight); into?.push(text); }
  };
  for (const t of s.title) take(t, 1);
  for (const t of s.other ?? []) take(t, 0.9);
  if (s.fields.has('notes')) for (const n of s.notes ?? []) take(stripHtml(n), 0.8, notes);
  if (s.fields.has('custom_fields') && s.entity) {
    for (const f of customFields(state, s.entity)) {
      const v = s.custom?.[f.field_code];
      if (v === undefined || v === null || !SEARCHABLE_CUSTOM_TYPES.has(f.field_type)) continue;
      take(String(v), 0.8, custom);
    }
  }
  return { score: best, custom, notes };
}
