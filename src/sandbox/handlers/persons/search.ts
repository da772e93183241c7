// GET /api/v2/persons/search (beta): term over name, email, phone, notes and custom
// fields; result shape {items:[{result_score, item}]}, cursor-paged, limit up to 500.
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { cursorPage } from '../../http/paginate.js';
import type { Person } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee } from '../../engine/access.js';
import { contactSync, pictures, SEARCH } from './common.js';
import { score } from '../../http/search-score.js';
import { FOUND_PER_LINK, searchTerm } from '../../engine/search.js';
import { searchText } from '../shared/search-text.js';

const FIELDS = ['custom_fields', 'email', 'notes', 'phone', 'name'] as const;
const digits = (s: string) => s.replace(/[^\d+]/g, '');

function match(state: SandboxState, p: Person, term: string, exact: boolean, fields: ReadonlySet<string>) {
  const other = [
    ...(fields.has('name') ? [p.first_name, p.last_name].filter(Boolean) : []),
    ...(fields.has('email') ? p.emails.map((e) => e.value) : []),
    ...(fields.has('phone') ? p.phones.map((ph) => ph.value) : []),
  ];
  const notes = state.notes.filter((x) => x.person_id === p.id).map((n) => n.content);
  if (contactSync(state) && typeof p.notes === 'string') notes.push(p.notes);
  const m = searchText(state, { term, exact, fields, title: fields.has('name') ? [p.name] : [], other, notes, entity: 'person', custom: p.custom_fields });
  // Phones also match without spaces and punctuation.
  if (fields.has('phone') && digits(term).length >= 2) for (const ph of p.phones) m.score = Math.max(m.score, score(digits(ph.value), digits(term), exact) * 0.9);
  return m;
}

function search(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const q = req.query;
  const { term, exact, fields } = searchTerm(q, FIELDS);
  const include = q.list('include_fields') ?? [];
  for (const f of include) if (f !== 'person.picture') throw invalid('include_fields', 'must be person.picture');
  const orgId = q.int('organization_id', { min: 1 });
  q.int('limit', { min: 1, max: 500 });

  const found = state.persons
    .filter((p) => canSee(state, req.user, p) && (orgId === undefined || p.org_id === orgId))
    .map((p) => ({ p, ...match(state, p, term, exact, fields) }))
    .filter((h) => h.score > 0)
    .sort((a, b) => b.score - a.score || a.p.id - b.p.id);
  // At most 2000 persons are found per organization (interface, Limits).
  const hits = orgId !== undefined ? found.slice(0, FOUND_PER_LINK) : found;

  const page = cursorPage(hits.map((h, rank) => ({ id: h.p.id, rank, h })), q, { field: 'rank' });
  const items = page.data.map(({ h }) => {
    const p = h.p;
    const org = p.org_id ? state.organizations.getAny(p.org_id) : undefined;
    const item: Record<string, unknown> = {
      id: p.id, type: 'person', name: p.name, phones: p.phones.map((x) => x.value), emails: p.emails.map((x) => x.value),
      visible_to: p.visible_to, owner: { id: p.owner_id }, organization: org ? { id: org.id, name: org.name } : null,
      custom_fields: h.custom, notes: h.notes,
    };
    if (include.includes('person.picture')) {
      const pic = p.picture_id ? pictures(state).get(p.picture_id) : undefined;
      item.picture = pic ? { id: pic.id, pictures: pic.pictures } : null;
    }
    return { result_score: Math.round(h.score * 1000) / 1000, item };
  });
  return ok({ items }, page.additional_data);
}

// Cost "not shown" in the interface; the vendor's is 20.
export const searchRoutes: RouteDef[] = [{ method: 'GET', path: '/api/v2/persons/search', cost: 20, scopes: SEARCH, handler: search }];
