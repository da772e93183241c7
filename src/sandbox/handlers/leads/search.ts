// GET /api/v2/leads/search: term over title, notes and custom fields; v2 search
// result shape {items:[{result_score, item}]} with cursor pagination.
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { cursorPage, offsetPage } from '../../http/paginate.js';
import type { Lead } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee } from '../../engine/access.js';
import { FOUND_PER_LINK, searchTerm } from '../../engine/search.js';
import { searchText } from '../shared/search-text.js';

const FIELDS = ['custom_fields', 'notes', 'title'] as const;

function searchOne(state: SandboxState, lead: Lead, term: string, exact: boolean, fields: ReadonlySet<string>) {
  // A lead's custom fields are the deal fields.
  const notes = state.notes.filter((x) => x.lead_id === lead.id).map((n) => n.content);
  return searchText(state, { term, exact, fields, title: fields.has('title') ? [lead.title] : [], notes, entity: 'deal', custom: lead });
}

function search(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const q = req.query;
  const { term, exact, fields } = searchTerm(q, FIELDS);
  const include = q.list('include_fields') ?? [];
  for (const f of include) if (f !== 'lead.was_seen') throw invalid('include_fields', 'must be lead.was_seen');
  const personId = q.int('person_id'), orgId = q.int('organization_id');
  // Validate limit before doing work so an over-limit request fails fast (max 100).
  q.int('limit', { min: 1, max: 100 });

  const found = state.leads
    .filter((l) => canSee(state, req.user, l))
    .filter((l) => personId === undefined || l.person_id === personId)
    .filter((l) => orgId === undefined || l.organization_id === orgId)
    .map((l) => ({ lead: l, ...searchOne(state, l, term, exact, fields) }))
    .filter((h) => h.score > 0)
    .sort((a, b) => b.score - a.score || a.lead.add_time.localeCompare(b.lead.add_time));
  // At most 2000 leads are found per person or organization (interface, Limits).
  const hits = personId !== undefined || orgId !== undefined ? found.slice(0, FOUND_PER_LINK) : found;

  const ranked = hits.map((h, i) => ({ id: h.lead.id, rank: i, h }));
  // v1 pages by offset (start/limit), v2 by cursor; the items are the same.
  const page = req.route.includes('/v1/') ? offsetPage(ranked, q, { maxLimit: 100 }) : cursorPage(ranked, q, { maxLimit: 100, field: 'rank' });
  const items = page.data.map(({ h }) => {
    const l = h.lead;
    const person = l.person_id ? state.persons.getAny(l.person_id) : undefined;
    const org = l.organization_id ? state.organizations.getAny(l.organization_id) : undefined;
    const item: Record<string, unknown> = {
      id: l.id, type: 'lead', title: l.title, owner: { id: l.owner_id },
      person: person ? { id: person.id, name: person.name } : null,
      organization: org ? { id: org.id, name: org.name } : null,
      phones: person ? person.phones.map((p) => p.value) : [],
      emails: person ? person.emails.map((e) => e.value) : [],
      custom_fields: h.custom, notes: h.notes,
      value: l.value?.amount ?? null, currency: l.value?.currency ?? null,
      visible_to: Number(l.visible_to), is_archived: l.is_archived,
    };
    if (include.includes('lead.was_seen')) item.was_seen = l.was_seen;
    return { result_score: Math.round(h.score * 1000) / 1000, item };
  });
  return ok({ items }, page.additional_data);
}

export const searchRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v2/leads/search', cost: 20, scopes: ['leads:read', 'leads:full', 'search:read'], handler: search },
  { method: 'GET', path: '/api/v1/leads/search', cost: 40, scopes: ['leads:read', 'leads:full', 'search:read'], handler: search },
];
