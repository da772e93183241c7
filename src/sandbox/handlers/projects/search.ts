// GET /api/v2/projects/search (beta): term over title, description, notes and searchable custom
// fields; v2 search result shape {items:[{result_score, item}]} with cursor pagination (max 100).
import { ok } from '../../http/envelope.js';
import { cursorPage } from '../../http/paginate.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { phases, PROJECT_READ, projects, type Project } from './store.js';
import { searchTerm } from '../../engine/search.js';
import { searchText } from '../shared/search-text.js';

const FIELDS = ['custom_fields', 'notes', 'title', 'description'] as const;

function match(state: SandboxState, p: Project, term: string, exact: boolean, fields: ReadonlySet<string>) {
  const notes = state.notes.filter((x) => x.project_id === p.id).map((n) => n.content);
  const other = fields.has('description') && p.description ? [p.description] : [];
  return searchText(state, { term, exact, fields, title: fields.has('title') ? [p.title] : [], other, notes, entity: 'project', custom: p.custom_fields });
}

function item(state: SandboxState, p: Project, notes: string[], custom: string[]) {
  const phase = phases(state).get(p.phase_id);
  const person = p.person_ids[0] !== undefined ? state.persons.get(p.person_ids[0]) : undefined;
  const org = p.org_ids[0] !== undefined ? state.organizations.get(p.org_ids[0]) : undefined;
  const deal = p.deal_ids[0] !== undefined ? state.deals.get(p.deal_ids[0]) : undefined;
  return {
    id: p.id, type: 'project', title: p.title, status: p.status, owner: { id: p.owner_id }, board_id: p.board_id,
    phase: phase ? { id: phase.id, name: phase.name } : null,
    person: person ? { id: person.id, name: person.name } : null,
    organization: org ? { id: org.id, name: org.name, address: org.address?.value ?? null } : null,
    deal: deal ? { id: deal.id, title: deal.title } : null,
    deal_count: p.deal_ids.length, description: p.description, end_date: p.end_date, custom_fields: custom, notes,
  };
}

function search(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const q = req.query;
  const { term, exact, fields } = searchTerm(q, FIELDS);
  const person = q.int('person_id', { min: 1 }), org = q.int('organization_id', { min: 1 });
  // Limit checked before the work: max 100 for project search (interface, Limits).
  q.int('limit', { min: 1, max: 100 });

  const hits = projects(state)
    .filter((p) => p.status !== 'deleted' && (person === undefined || p.person_ids.includes(person)) && (org === undefined || p.org_ids.includes(org)))
    .map((p) => ({ p, m: match(state, p, term, exact, fields) }))
    .filter((h) => h.m.score > 0)
    .sort((a, b) => b.m.score - a.m.score || a.p.id - b.p.id)
    .map((h) => ({ id: h.p.id, result_score: Math.round(h.m.score * 10000) / 10000, item: item(state, h.p, h.m.notes, h.m.custom) }));
  const page = cursorPage(hits, q, { maxLimit: 100, field: 'result_score', direction: 'desc' });
  return ok({ items: page.data.map(({ result_score, item: it }) => ({ result_score, item: it })) }, page.additional_data);
}

export const searchRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v2/projects/search', cost: 20, scopes: [...PROJECT_READ, 'search:read'], handler: search },
];
