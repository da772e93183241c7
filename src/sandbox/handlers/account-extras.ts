// Area module: organization relationships (v1), the authorized user's settings and connections,
// the company's billing add-ons and meeting-provider links. Relationships follow the vendor's
// documents: the owner of a "parent" relationship is the parent of the linked organization; lists
// show each relationship from the asked organization's side (calculated_type, the related org).
import { ok } from '../http/envelope.js';
import { objectBody } from '../http/validate.js';
import { ApiError, invalid } from '../http/errors.js';
import type { Organization } from '../store/records.js';
import type { SandboxState } from '../store/state.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../types.js';
import { v1Time } from '../engine/time.js';

interface Relationship { id: number; type: 'parent' | 'related'; rel_owner_org_id: number; rel_linked_org_id: number; add_time: string; update_time: string; [k: string]: unknown }
interface ProviderLink { id: string; user_provider_id: string; user_id: number; company_id: number; marketplace_client_id: string; [k: string]: unknown }

const READ = ['contacts:read', 'contacts:full'];
const WRITE = ['contacts:full'];
const relationships = (s: SandboxState) => s.collection<Relationship>('organizationRelationships', { idKind: 'int' });
const providerLinks = (s: SandboxState) => s.collection<ProviderLink>('meetingProviderLinks', { idKind: 'given' });

function orgSummary(state: SandboxState, id: number) {
  const o = state.organizations.getAny(id) as Organization | undefined;
  const address = o?.address as { value?: string } | string | null | undefined;
  return {
    name: o?.name ?? null, people_count: state.persons.filter((p) => p.org_id === id).length, owner_id: (o?.owner_id as number | undefined) ?? null,
    address: typeof address === 'string' ? address : address?.value ?? null, cc_email: `${state.company.domain}+org${id}@pipedrivemail.com`, value: id,
  };
}

/** The relationship as the organization `view` sees it: the other organization and what it is to `view`. */
function present(state: SandboxState, r: Relationship, view: number | undefined) {
  const side = view === r.rel_linked_org_id ? 'linked' : 'owner';
  const other = side === 'owner' ? r.rel_linked_org_id : r.rel_owner_org_id;
  const calculated = r.type === 'related' ? 'related' : side === 'owner' ? 'daughter' : 'parent';
  return {
    id: r.id, type: r.type, rel_owner_org_id: orgSummary(state, r.rel_owner_org_id), rel_linked_org_id: orgSummary(state, r.rel_linked_org_id),
    add_time: v1Time(r.add_time), update_time: v1Time(r.update_time), active_flag: true, calculated_type: calculated,
    calculated_related_org_id: other, related_organization_name: state.organizations.getAny(other)?.name ?? null,
  };
}

/** related_objects.organization: the same summary keyed by id (`value` is the key there). */
const related = (state: SandboxState, ids: number[]) => ({
  organization: Object.fromEntries([...new Set(ids)].map((id) => {
    const { value: _v, ...summary } = orgSummary(state, id);
    return [id, { id, ...summary }];
  })),
});

function orgId(v: unknown, field: string, state: SandboxState, required: boolean): number | undefined {
  if (v === undefined || v === null || v === '') {
    if (required) throw invalid(field, 'is required');
    return undefined;
  }
  const n = typeof v === 'number' ? v : /^\d+$/.test(String(v)) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1) throw invalid(field, 'must be a positive integer');
  if (!state.organizations.get(n)) throw invalid(field, `no organization with id ${n}`);
  return n;
}

function loadRel(state: SandboxState, raw: string): Relationship {
  const r = /^\d+$/.test(raw) ? relationships(state).get(Number(raw)) : undefined;
  if (!r) throw new ApiError(404, 'Organization relationship not found');
  return r;
}

/** One parent per organization, no relationship of an organization with itself, no duplicate pair. */
function checkRel(state: SandboxState, type: string, owner: number, linked: number, self?: number): void {
  if (type !== 'parent' && type !== 'related') throw invalid('type', 'must be one of parent, related');
  if (owner === linked) throw invalid('rel_linked_org_id', 'an organization cannot be related to itself');
  const others = relationships(state).filter((r) => r.id !== self);
  if (others.some((r) => (r.rel_owner_org_id === owner && r.rel_linked_org_id === linked) || (r.rel_owner_org_id === linked && r.rel_linked_org_id === owner))) {
    throw invalid('rel_linked_org_id', `organizations ${owner} and ${linked} are already related`);
  }
  if (type === 'parent' && others.some((r) => r.type === 'parent' && r.rel_linked_org_id === linked)) throw invalid('rel_linked_org_id', `organization ${linked} already has a parent`);
  if (type === 'parent' && others.some((r) => r.type === 'parent' && r.rel_owner_org_id === linked && r.rel_linked_org_id === owner)) throw invalid('type', 'the two organizations would be each other\'s parent');
}

const body = (req: SandboxRequest): Record<string, unknown> => objectBody(req.body, false);

function create(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const b = body(req);
  const owner = orgId(b.rel_owner_org_id, 'rel_owner_org_id', state, true)!;
  const linked = orgId(b.rel_linked_org_id, 'rel_linked_org_id', state, true)!;
  if (b.type === undefined) throw invalid('type', 'is required');
  checkRel(state, String(b.type), owner, linked);
  const view = orgId(b.org_id, 'org_id', state, false);
  const now = ctx.now().toISOString();
  const r = relationships(state).insert({ type: b.type as Relationship['type'], rel_owner_org_id: owner, rel_linked_org_id: linked, add_time: now, update_time: now }, { userId: req.userId });
  return { status: 200, body: { success: true, data: present(state, r, view ?? owner), related_objects: related(state, [owner, linked]) } };
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const r = loadRel(state, req.params.id!);
  const b = body(req);
  const owner = orgId(b.rel_owner_org_id, 'rel_owner_org_id', state, false) ?? r.rel_owner_org_id;
  const linked = orgId(b.rel_linked_org_id, 'rel_linked_org_id', state, false) ?? r.rel_linked_org_id;
  const type = (b.type as string | undefined) ?? r.type;
  checkRel(state, type, owner, linked, r.id);
  const view = orgId(b.org_id, 'org_id', state, false);
  const next = relationships(state).update(r.id, { type: type as Relationship['type'], rel_owner_org_id: owner, rel_linked_org_id: linked, update_time: ctx.now().toISOString() }, { userId: req.userId });
  return { status: 200, body: { success: true, data: present(state, next, view ?? owner), related_objects: related(state, [owner, linked]) } };
}

const SETTINGS = {
  marketplace_team: false, list_limit: 100, beta_app: false, prevent_salesphone_callto_override: false, file_upload_destination: 'pipedrive',
  callto_link_syntax: 'callto:[number]', autofill_deal_expected_close_date: false, person_duplicate_condition: 'name_or_email',
};

function link(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const b = body(req);
  for (const k of ['user_provider_id', 'user_id', 'company_id', 'marketplace_client_id']) if (b[k] === undefined || b[k] === null || b[k] === '') throw invalid(k, 'is required');
  if (typeof b.user_provider_id !== 'string' || !/^[0-9a-f-]{36}$/i.test(b.user_provider_id)) throw invalid('user_provider_id', 'must be a UUID');
  if (!state.users.get(Number(b.user_id))) throw invalid('user_id', `no user with id ${String(b.user_id)}`);
  if (Number(b.company_id) !== state.company.id) throw invalid('company_id', `must be this company's id (${state.company.id})`);
  const id = b.user_provider_id.toLowerCase();
  const rec = { user_provider_id: id, user_id: Number(b.user_id), company_id: Number(b.company_id), marketplace_client_id: String(b.marketplace_client_id) };
  if (providerLinks(state).get(id)) providerLinks(state).update(id, rec, { userId: req.userId });
  else providerLinks(state).insert({ id, ...rec }, { userId: req.userId });
  return ok({ message: 'The user was added successfully' });
}

function unlink(req: SandboxRequest, ctx: HandlerContext) {
  const id = req.params.id!.toLowerCase();
  if (!providerLinks(ctx.state).get(id)) throw new ApiError(404, 'User provider link not found');
  providerLinks(ctx.state).remove(id);
  return ok({ message: 'The user was successfully unlinked' });
}

export const accountExtrasArea: AreaModule = {
  name: 'account-extras',
  routes: [
    {
      method: 'GET', path: '/api/v1/organizationRelationships', cost: 20, scopes: READ,
      handler: (req, ctx) => {
        const org = orgId(req.query.str('org_id'), 'org_id', ctx.state, true)!;
        const rows = relationships(ctx.state).filter((r) => r.rel_owner_org_id === org || r.rel_linked_org_id === org).sort((a, b) => a.id - b.id);
        return { status: 200, body: { success: true, data: rows.map((r) => present(ctx.state, r, org)), additional_data: { start: 0, limit: rows.length, more_items_in_collection: false }, related_objects: related(ctx.state, rows.flatMap((r) => [r.rel_owner_org_id, r.rel_linked_org_id])) } };
      },
    },
    {
      method: 'GET', path: '/api/v1/organizationRelationships/{id}', cost: 2, scopes: READ,
      handler: (req, ctx) => {
        const r = loadRel(ctx.state, req.params.id!);
        const view = orgId(req.query.str('org_id'), 'org_id', ctx.state, false);
        return { status: 200, body: { success: true, data: present(ctx.state, r, view ?? r.rel_owner_org_id), related_objects: related(ctx.state, [r.rel_owner_org_id, r.rel_linked_org_id]) } };
      },
    },
    { method: 'POST', path: '/api/v1/organizationRelationships', cost: 10, scopes: WRITE, handler: create },
    { method: 'PUT', path: '/api/v1/organizationRelationships/{id}', cost: 10, scopes: WRITE, handler: update },
    {
      method: 'DELETE', path: '/api/v1/organizationRelationships/{id}', cost: 6, scopes: WRITE,
      handler: (req, ctx) => {
        const r = loadRel(ctx.state, req.params.id!);
        relationships(ctx.state).markDeleted(r.id, {}, { userId: req.userId });
        return ok({ id: r.id });
      },
    },
    { method: 'GET', path: '/api/v1/userSettings', cost: 2, scopes: ['base'], handler: () => ok({ ...SETTINGS }) },
    { method: 'GET', path: '/api/v1/userConnections', cost: 20, scopes: ['base'], handler: (req) => ok({ google: `google-${req.userId}` }) },
    {
      method: 'GET', path: '/api/v1/billing/subscriptions/addons', cost: 20, scopes: ['users:read'],
      handler: () => ok([{ code: 'leadbooster_v2' }, { code: 'campaigns_v2' }]),
    },
    { method: 'POST', path: '/api/v1/meetings/userProviderLinks', cost: 10, scopes: ['video-calls'], handler: link },
    { method: 'DELETE', path: '/api/v1/meetings/userProviderLinks/{id}', cost: 6, scopes: ['video-calls'], handler: unlink },
  ],
};
