// v2 search of a described resource: GET <base>/search?term=…&fields=…&exact_match=… — the term rules of
// the service (at least 2 characters, 1 with exact_match), results ranked by score then id,
// {items: [{result_score, item}]}, cursor pages.
import { ok } from '../http/envelope.js';
import { invalid } from '../http/errors.js';
import { cursorPage } from '../http/paginate.js';
import type { Query } from '../http/query.js';
import type { Rec } from '../store/collection.js';
import type { RouteDef } from '../types.js';
import { canSee } from './access.js';
import { readFilter } from './crud.js';
import type { ResourceSpec } from './resource.js';

/**
 * The service finds at most this many records per linked person or organization (interface, Limits:
 * lead and person search; the vendor's documents say the same of deal search by person, organization
 * and status). A search narrowed by such a link stops there, however many match.
 */
export const FOUND_PER_LINK = 2000;

/** term, exact_match and fields of a search request, checked. */
export function searchTerm(q: Query, allowedFields: readonly string[]): { term: string; exact: boolean; fields: Set<string> } {
  const exact = q.bool('exact_match') ?? false;
  const raw = q.str('term');
  if (raw === undefined) throw invalid('term', 'is required');
  const term = raw.trim();
  const min = exact ? 1 : 2;
  if (term.length < min) throw invalid('term', `must be at least ${min} character${min > 1 ? 's (1 with exact_match)' : ''}`);
  const list = q.list('fields');
  for (const f of list ?? []) if (!allowedFields.includes(f)) throw invalid('fields', `must be a comma-separated list of ${allowedFields.join(', ')}`);
  return { term, exact, fields: new Set(list ?? allowedFields) };
}

export function searchRoute<T extends Rec & { id: number }>(spec: ResourceSpec<T>): RouteDef {
  const s = spec.search!;
  return {
    method: 'GET', path: `${spec.base}/search`, cost: spec.costs?.search ?? 20, scopes: spec.scopes.search ?? spec.scopes.read,
    handler: (req, ctx) => {
      const { state } = ctx;
      const q = req.query;
      const { term, exact, fields } = searchTerm(q, s.fields);
      const include = q.list('include_fields') ?? [];
      for (const f of include) if (!(s.include ?? []).includes(f)) throw invalid('include_fields', (s.include ?? []).length ? `must be one of ${s.include!.join(', ')}` : 'is not supported here');
      const filters = Object.entries(s.filters ?? {}).map(([name, f]) => ({ name, f, v: readFilter(q, name, f) })).filter((x) => x.v !== undefined);
      q.int('limit', { min: 1, max: s.maxLimit ?? 500 });
      const found = spec.collection(state).all()
        .filter((r) => (!spec.owned || canSee(state, req.user, r as never)) && filters.every(({ f, v }) => f.test(r, v as never, state)))
        .map((r) => ({ r, m: s.match(state, r, term, exact, fields) }))
        .filter((h) => h.m.score > 0)
        .sort((a, b) => b.m.score - a.m.score || a.r.id - b.r.id);
      const capped = filters.some(({ name }) => s.capped?.includes(name));
      const hits = capped ? found.slice(0, FOUND_PER_LINK) : found;
      const page = cursorPage(hits.map((h, rank) => ({ id: h.r.id, rank, h })), q, { field: 'rank', maxLimit: s.maxLimit ?? 500 });
      const items = page.data.map(({ h }) => ({
        result_score: Math.round(h.m.score * 1000) / 1000,
        item: s.item(state, h.r, { custom: h.m.custom ?? [], notes: h.m.notes ?? [] }, include),
      }));
      return ok({ items }, page.additional_data);
    },
  };
}
