// GET /api/v2/persons/search (beta): term over name, email, phone, notes and custom
// fields; result shape {items:[{result_score, item}]}, cursor-paged, limit up to 500.
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { cursorPage } from '../../http/paginate.js';
import type { Person } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee } from '../../engine/access.js';
import { contactSync, customFieldMap, pictures, SEARCH } from './common.js';
import { score, SEARCHABLE_CUSTOM_TYPES, stripHtml } from '../../http/search-score.js';

const FIELDS = ['custom_fields', 'email', 'notes', 'phone', 'name'] as const;
type Field = (typeof FIELDS)[number];
/** At most this many persons are found per organization (interface, Limits). */
const PER_ORG = 2000;



function match(state: SandboxState, p: Person, term: string, exact: boolean, fields: Set<Field>) {
  let best = 0;
  const notes: string[] = [], custom: string[] = [];
  const take = (text: string, weight: number, into?: string[]) => {
    const s = score(text, term, exact);
    if (s > 0) { best = Math.max(best, s * weight); into?.push(text); }
  };
  if (fields.has('name')) { take(p.name, 1); take(p.first_name, 0.95); take(p.last_name, 0.95); }
  if (fields.has('email')) for (const e of p.emails) take(e.value, 0.9);
  if (fields.has('phone')) {
    for (const ph of p.phones) {
      take(ph.value, 0.9);
      // Phones also match without spaces and punctuation.
      const digits = (s: string) => s.replace(/[^\d+]/g, '');
      if (digits(term).length >= 2 && score(digits(ph.value), digits(term), exact) > 0) best = Math.max(best, score(digits(ph.value), digits(term), exact) * 0.9);
    }
  }
  if (fields.has('notes')) {
    for (const n of state.notes.filter((x) => x.person_id === p.id)) take(stripHtml(n.content), 0.8, notes);
    if (contactSync(state) && typeof p.notes === 'string') take(p.notes, 0.8, notes);
  }
  if (fields.has('custom_fields')) {
    for (const [k, f] of customFieldMap(state)) {
      const v = p.custom_fields?.[k];
      if (v === undefined || v === null || !SEARCHABLE_CUSTOM_TYPES.has(f.field_type)) continue;
      take(String(v), 0.8, custom);
    }
  }
  return { best, notes, custom };
}

function search(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const q = req.query;
  const exact = q.bool('exact_match') ?? false;
  const term = q.str('term');
  if (term === undefined) throw invalid('term', 'is required');
  const min = exact ? 1 : 2;
  if (term.trim().length < min) throw invalid('term', `must be at least ${min} character${min > 1 ? 's (1 with exact_match)' : ''}`);
  const list = q.list('fields');
  for (const f of list ?? []) if (!(FIELDS as readonly string[]).includes(f)) throw invalid('fields', `must be a comma-separated list of ${FIELDS.join(', ')}`);
  const fields = new Set<Field>((list ?? FIELDS) as Field[]);
  const include = q.list('include_fields') ?? [];
  for (const f of include) if (f !== 'person.picture') throw invalid('include_fields', 'must be person.picture');
  const orgId = q.int('organization_id', { min: 1 });
  q.int('limit', { min: 1, max: 500 });

  let hits = state.persons
    .filter((p) => canSee(state, req.user, p) && (orgId === undefined || p.org_id === orgId))
    .map((p) => ({ p, ...match(state, p, term.trim(), exact, fields) }))
    .filter((h) => h.best > 0)
    .sort((a, b) => b.best - a.best || a.p.id - b.p.id);
  if (orgId !== undefined) hits = hits.slice(0, PER_ORG);

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
    return { result_score: Math.round(h.best * 1000) / 1000, item };
  });
  return ok({ items }, page.additional_data);
}

// Cost "not shown" in the interface; the vendor's is 20.
export const searchRoutes: RouteDef[] = [{ method: 'GET', path: '/api/v2/persons/search', cost: 20, scopes: SEARCH, handler: search }];
