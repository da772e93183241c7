// Area module: item search (v2) — one term across deals, persons, organizations, products, leads and
// projects, ranked by score then type and id; and search of one field's values of one item type.
// Files and mail attachments are accepted item types; the sandbox stores no searchable file text, so
// they never match.
import { ok } from '../http/envelope.js';
import { invalid } from '../http/errors.js';
import { cursorPage } from '../http/paginate.js';
import { score } from '../http/search-score.js';
import type { SandboxState } from '../store/state.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../types.js';
import { canSee } from '../engine/access.js';
import { searchTerm } from '../engine/search.js';
import { searchText } from './shared/search-text.js';
import { projects } from './projects/store.js';
import type { AnySpec } from '../engine/resource.js';
import type { Product } from '../store/records.js';
import { dealSpec } from './deals/spec.js';
import { organizationSpec } from './organizations/spec.js';
import { productSpec } from './products/index.js';

const SCOPES = ['search:read'];
const TYPES = ['deal', 'person', 'organization', 'product', 'lead', 'file', 'mail_attachment', 'project'] as const;
const FIELDS = ['address', 'code', 'custom_fields', 'email', 'name', 'notes', 'phone', 'title', 'description'] as const;
const INCLUDE = ['deal.cc_email', 'person.picture', 'product.price'] as const;

interface Hit { result_score: number; type: string; id: number | string; item: Record<string, unknown> }

function candidates(state: SandboxState, req: SandboxRequest, term: string, exact: boolean, fields: Set<string>, types: Set<string>, include: string[]): Hit[] {
  const hits: Hit[] = [];
  const visible = (r: { owner_id: number; visible_to: number | string }) => canSee(state, req.user, r);
  const push = (type: string, id: number | string, s: number, item: Record<string, unknown>) => { if (s > 0) hits.push({ result_score: Math.round(s * 1000) / 1000, type, id, item: { id, type, ...item } }); };
  // Deals, organizations and products rank and present as their own search does (their resource specs).
  for (const spec of [dealSpec, organizationSpec, productSpec] as unknown as AnySpec[]) {
    if (!types.has(spec.object)) continue;
    for (const rec of spec.collection(state).all().filter((r) => !spec.owned || visible(r as never))) {
      const h = spec.search!.match(state, rec, term, exact, fields);
      const item = spec.search!.item(state, rec, { custom: h.custom ?? [], notes: h.notes ?? [] }, include);
      if (spec.object === 'product' && include.includes('product.price')) item.prices = (rec as unknown as Product).prices;
      const { id: _id, type: _type, ...rest } = item;
      push(spec.object, rec.id, h.score, rest);
    }
  }
  if (types.has('person')) for (const p of state.persons.filter(visible)) {
    const h = searchText(state, {
      term, exact, fields, title: fields.has('name') ? [p.name] : [],
      other: [...(fields.has('email') ? p.emails.map((e) => e.value) : []), ...(fields.has('phone') ? p.phones.map((x) => x.value) : [])],
      notes: state.notes.filter((n) => n.person_id === p.id).map((n) => n.content), entity: 'person', custom: p.custom_fields,
    });
    const item: Record<string, unknown> = { name: p.name, emails: p.emails.map((e) => e.value), phones: p.phones.map((x) => x.value), owner: { id: p.owner_id }, organization: p.org_id ? { id: p.org_id, name: state.organizations.getAny(p.org_id)?.name ?? null } : null, custom_fields: h.custom, notes: h.notes };
    if (include.includes('person.picture')) item.picture = p.picture_id ? { id: p.picture_id } : null;
    push('person', p.id, h.score, item);
  }
  if (types.has('lead')) for (const l of state.leads.filter((x) => !x.is_archived && canSee(state, req.user, x))) {
    const h = searchText(state, { term, exact, fields, title: fields.has('title') ? [l.title] : [], notes: state.notes.filter((n) => n.lead_id === l.id).map((n) => n.content) });
    push('lead', l.id, h.score, { title: l.title, owner: { id: l.owner_id }, person: l.person_id ? { id: l.person_id } : null, organization: l.organization_id ? { id: l.organization_id } : null, value: l.value?.amount ?? null, currency: l.value?.currency ?? null, custom_fields: h.custom, notes: h.notes });
  }
  if (types.has('project')) for (const p of projects(state).all()) {
    const s = Math.max(fields.has('title') ? score(p.title, term, exact) : 0, fields.has('description') && typeof p.description === 'string' ? score(p.description, term, exact) * 0.9 : 0);
    push('project', p.id, s, { title: p.title, owner: { id: p.owner_id } });
  }
  return hits;
}

const TYPE_ORDER = Object.fromEntries(TYPES.map((t, i) => [t, i]));

function itemSearch(req: SandboxRequest, ctx: HandlerContext) {
  const q = req.query;
  const { term, exact, fields } = searchTerm(q, FIELDS);
  const typeList = q.list('item_types');
  for (const t of typeList ?? []) if (!(TYPES as readonly string[]).includes(t)) throw invalid('item_types', `must be a comma-separated list of ${TYPES.join(', ')}`);
  const include = q.list('include_fields') ?? [];
  for (const i of include) if (!(INCLUDE as readonly string[]).includes(i)) throw invalid('include_fields', `must be a comma-separated list of ${INCLUDE.join(', ')}`);
  const related = q.bool('search_for_related_items') ?? false;
  q.int('limit', { min: 1, max: 500 });
  const hits = candidates(ctx.state, req, term, exact, fields, new Set(typeList ?? TYPES), include)
    .sort((a, b) => b.result_score - a.result_score || TYPE_ORDER[a.type]! - TYPE_ORDER[b.type]! || String(a.id).localeCompare(String(b.id), 'en', { numeric: true }));
  const page = cursorPage(hits.map((h, rank) => ({ id: rank + 1, rank, h })), q, { field: 'rank', maxLimit: 500 });
  const items = page.data.map(({ h }) => ({ result_score: h.result_score, item: h.item }));
  // Related items: the organization of a matching person and the person/organization of a matching deal.
  const relatedItems: Array<{ result_score: number; item: Record<string, unknown> }> = [];
  if (related) {
    const seen = new Set(items.map((i) => `${i.item.type}:${i.item.id}`));
    for (const { h } of page.data) {
      const refs: Array<[string, number | null | undefined]> = h.type === 'person' ? [['organization', ctx.state.persons.get(Number(h.id))?.org_id]]
        : h.type === 'deal' ? [['person', ctx.state.deals.get(Number(h.id))?.person_id], ['organization', ctx.state.deals.get(Number(h.id))?.org_id]] : [];
      for (const [type, id] of refs) {
        if (!id || seen.has(`${type}:${id}`)) continue;
        seen.add(`${type}:${id}`);
        const name = type === 'person' ? ctx.state.persons.getAny(id)?.name : ctx.state.organizations.getAny(id)?.name;
        relatedItems.push({ result_score: 0, item: { id, type, name: name ?? null } });
      }
    }
  }
  return ok({ items, related_items: relatedItems }, page.additional_data);
}

const ENTITIES = ['deal', 'lead', 'person', 'organization', 'product', 'project'] as const;
const MATCH = ['exact', 'beginning', 'middle'] as const;

function fieldSearch(req: SandboxRequest, ctx: HandlerContext) {
  const q = req.query;
  const term = q.str('term');
  if (term === undefined) throw invalid('term', 'is required');
  const entity = q.oneOf('entity_type', ENTITIES);
  if (!entity) throw invalid('entity_type', `is required (${ENTITIES.join(', ')})`);
  const field = q.str('field');
  if (!field) throw invalid('field', 'is required (the key of a field of the item type)');
  const match = q.oneOf('match', MATCH) ?? 'exact';
  // beginning and middle need at least 2 characters, exact 1 (the vendor's documents).
  if (term.trim().length < (match === 'exact' ? 1 : 2)) throw invalid('term', `must be at least ${match === 'exact' ? 1 : 2} characters with match ${match}`);
  const { state } = ctx;
  const rows: Array<Record<string, unknown>> = entity === 'deal' ? state.deals.filter((d) => canSee(state, req.user, d)) : entity === 'lead' ? state.leads.filter((l) => canSee(state, req.user, l))
    : entity === 'person' ? state.persons.filter((p) => canSee(state, req.user, p)) : entity === 'organization' ? state.organizations.filter((o) => canSee(state, req.user, o))
      : entity === 'product' ? state.products.all() : projects(state).all();
  const t = term.toLowerCase();
  const out: Array<{ id: number; rank: number; r: { result_score: number; item: Record<string, unknown> } }> = [];
  for (const r of rows) {
    const raw = r[field] ?? (r.custom_fields as Record<string, unknown> | undefined)?.[field];
    const values = Array.isArray(raw) ? raw.map((x) => (x && typeof x === 'object' ? (x as { value?: unknown }).value : x)) : [raw];
    const v = values.map((x) => (x === null || x === undefined ? '' : String(x))).find((x) => {
      const s = x.toLowerCase();
      return match === 'exact' ? s === t : match === 'beginning' ? s.startsWith(t) : s.includes(t);
    });
    if (v !== undefined) out.push({ id: out.length + 1, rank: out.length, r: { result_score: v.toLowerCase() === t ? 1 : 0.5, item: { id: r.id, [field]: v } } });
  }
  const page = cursorPage(out, q, { field: 'rank', maxLimit: 500 });
  return ok(page.data.map((x) => x.r), page.additional_data);
}

export const itemSearchArea: AreaModule = {
  name: 'item-search',
  routes: [
    { method: 'GET', path: '/api/v2/itemSearch', cost: 20, scopes: SCOPES, handler: itemSearch },
    { method: 'GET', path: '/api/v2/itemSearch/field', cost: 20, scopes: SCOPES, handler: fieldSearch },
  ],
};
