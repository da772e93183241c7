// Area module: users (v1, plus the v2 followers list). Who am I, the company's users, finding users by
// name or email, adding (an invitation: the new user is active but has no name until they accept) and
// (de)activating users (admins only), who follows a user, and a user's permissions, role assignments
// and role settings (from the roles area's store).
import { ok } from '../http/envelope.js';
import { ApiError, invalid, notFound } from '../http/errors.js';
import { offsetPage } from '../http/paginate.js';
import { objectBody, optArray, optBool, rejectUnknown, reqString } from '../http/validate.js';
import type { User } from '../store/records.js';
import type { SandboxState } from '../store/state.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../types.js';
import { followerRoutes, followersOf } from '../engine/followers.js';
import { v1Time } from '../engine/time.js';
import { DEFAULT_ROLE_ID, requireAdmin, roles, settingsOf } from './roles/store.js';

const READ = ['users:read'];
const ADMIN = ['admin'];
const APPS = ['global', 'sales', 'campaigns', 'projects', 'account_settings', 'partnership', 'nova'] as const;

export function presentUser(state: SandboxState, u: User): Record<string, unknown> {
  return {
    id: u.id, name: u.name, default_currency: u.default_currency, locale: u.locale, lang: 1, email: u.email, phone: (u.phone as string | undefined) ?? null,
    activated: u.active_flag, last_login: (u.last_login as string | undefined) ?? null, created: u.created, modified: u.modified, has_created_company: u.id === 1,
    // A seeded admin is the account's admin (global, as a created one with global admin access is), with the seeded permission sets' ids.
    access: (u.access as unknown[] | undefined) ?? ['global', 'sales'].map((app) => ({ app, admin: u.is_admin, permission_set_id: `${app}-${u.is_admin ? 'admin' : 'regular'}` })),
    active_flag: u.active_flag, timezone_name: u.timezone_name, timezone_offset: '+00:00', role_id: u.role_id, icon_url: u.icon_url,
    is_you: false, is_deleted: false, company_id: state.company.id,
  };
}

function loadUser(req: SandboxRequest, ctx: HandlerContext): User {
  const raw = req.params.id!;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid('id', 'must be a positive integer');
  const u = ctx.state.users.get(Number(raw));
  if (!u) throw notFound('User not found');
  return u;
}

function find(req: SandboxRequest, ctx: HandlerContext) {
  const term = req.query.str('term');
  if (!term) throw invalid('term', 'is required');
  const byEmail = req.query.str('search_by_email');
  if (byEmail !== undefined && byEmail !== '0' && byEmail !== '1') throw invalid('search_by_email', 'must be 0 or 1');
  const t = term.toLowerCase();
  const rows = ctx.state.users.filter((u) => (byEmail === '1' ? u.email : u.name).toLowerCase().includes(t));
  return ok(rows.map((u) => presentUser(ctx.state, u)));
}

function create(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const b = objectBody(req.body);
  rejectUnknown(b, ['email', 'access', 'active_flag']);
  const email = reqString(b, 'email', { max: 255 });
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw invalid('email', 'must be an email address');
  if (ctx.state.users.find((u) => u.email.toLowerCase() === email.toLowerCase())) throw new ApiError(400, `A user with email ${email} exists already`, 'The email is taken.');
  const access = optArray(b, 'access');
  for (const [i, a] of (access ?? []).entries()) {
    const x = a as Record<string, unknown>;
    if (!x || typeof x !== 'object' || !APPS.includes(x.app as never)) throw invalid(`access[${i}].app`, `must be one of ${APPS.join(', ')}`);
  }
  const now = ctx.now().toISOString();
  const u = ctx.state.users.insert({
    name: email.split('@')[0]!, email, is_admin: (access ?? []).some((a) => (a as { admin?: boolean }).admin === true && (a as { app: string }).app === 'global'),
    active_flag: optBool(b, 'active_flag') ?? true, role_id: DEFAULT_ROLE_ID, default_currency: ctx.state.company.default_currency, locale: 'en_US',
    timezone_name: 'UTC', created: v1Time(now)!, modified: v1Time(now)!, icon_url: null, ...(access ? { access } : {}),
  }, { userId: req.userId });
  return ok(presentUser(ctx.state, u));
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const u = loadUser(req, ctx);
  const b = objectBody(req.body);
  rejectUnknown(b, ['active_flag']);
  const active = optBool(b, 'active_flag');
  if (active === undefined) throw invalid('active_flag', 'is required');
  if (u.id === req.userId && !active) throw invalid('active_flag', 'you cannot deactivate yourself');
  const out = ctx.state.users.update(u.id, { active_flag: active, modified: v1Time(ctx.now().toISOString())! }, { userId: req.userId })!;
  return ok(presentUser(ctx.state, out));
}

const ALL_PERMISSIONS = [
  'can_add_custom_fields', 'can_add_products', 'can_add_prospects_as_leads', 'can_bulk_edit_items', 'can_change_visibility_of_items',
  'can_convert_deals_to_leads', 'can_create_own_workflow', 'can_delete_activities', 'can_delete_custom_fields', 'can_delete_deals',
  'can_edit_custom_fields', 'can_edit_deals_closed_date', 'can_edit_products', 'can_edit_shared_filters', 'can_export_data_from_lists',
  'can_follow_other_users', 'can_merge_deals', 'can_merge_organizations', 'can_merge_people', 'can_modify_labels',
  'can_see_company_wide_statistics', 'can_see_deals_list_summary', 'can_see_hidden_items_names', 'can_see_other_users',
  'can_see_other_users_statistics', 'can_see_security_dashboard', 'can_share_filters', 'can_share_insights', 'can_use_api',
  'can_use_email_tracking', 'can_use_import',
];
/** What a regular user may not do (the web app's default "regular user" permission set). */
const ADMIN_ONLY = new Set(['can_see_security_dashboard', 'can_delete_custom_fields', 'can_edit_shared_filters', 'can_see_other_users_statistics']);

function permissions(req: SandboxRequest, ctx: HandlerContext) {
  const u = loadUser(req, ctx);
  return ok(Object.fromEntries(ALL_PERMISSIONS.map((p) => [p, u.is_admin || !ADMIN_ONLY.has(p)])));
}

function roleAssignments(req: SandboxRequest, ctx: HandlerContext) {
  const u = loadUser(req, ctx);
  const role = roles(ctx.state).get(u.role_id);
  const rows = role ? [{ parent_role_id: role.parent_role_id, name: role.name, user_id: u.id, role_id: role.id, active_flag: role.active_flag, type: '1' }] : [];
  const page = offsetPage(rows, req.query);
  return ok(page.data, page.additional_data);
}

function roleSettings(req: SandboxRequest, ctx: HandlerContext) {
  const u = loadUser(req, ctx);
  const role = roles(ctx.state).get(u.role_id) ?? roles(ctx.state).get(DEFAULT_ROLE_ID);
  const s = role ? settingsOf(ctx.state, role) : {};
  const keys = ['deal_default_visibility', 'lead_default_visibility', 'org_default_visibility', 'person_default_visibility', 'product_default_visibility',
    'deal_access_level', 'org_access_level', 'person_access_level', 'product_access_level'];
  return ok(Object.fromEntries(keys.map((k) => [k, s[k] ?? 7])));
}

export const usersArea: AreaModule = {
  name: 'users',
  routes: [
    {
      method: 'GET', path: '/api/v1/users/me', cost: 2, scopes: ['base'],
      handler: (req, ctx) => ok({ ...presentUser(ctx.state, req.user), is_you: true, company_name: ctx.state.company.name, company_domain: ctx.state.company.domain }),
    },
    {
      method: 'GET', path: '/api/v1/users', cost: 20, scopes: READ,
      handler: (req, ctx) => {
        const page = offsetPage(ctx.state.users.all().map((u) => ({ ...presentUser(ctx.state, u), is_you: u.id === req.userId })), req.query);
        return ok(page.data, page.additional_data);
      },
    },
    { method: 'GET', path: '/api/v1/users/find', cost: 40, scopes: READ, handler: find },
    { method: 'POST', path: '/api/v1/users', cost: 10, scopes: ADMIN, handler: create },
    { method: 'GET', path: '/api/v1/users/{id}', cost: 2, scopes: READ, handler: (req, ctx) => { const u = loadUser(req, ctx); return ok({ ...presentUser(ctx.state, u), is_you: u.id === req.userId }); } },
    { method: 'PUT', path: '/api/v1/users/{id}', cost: 10, scopes: ADMIN, handler: update },
    ...followerRoutes({ object: 'user', v2: '/api/v2/users/{id}', v1: '/api/v1/users/{id}', v1Key: 'user_id', read: READ, write: ADMIN, load: loadUser, only: ['list'] }),
    // v1 answers with the follower user ids only.
    { method: 'GET', path: '/api/v1/users/{id}/followers', cost: 20, scopes: READ, handler: (req, ctx) => ok(followersOf(ctx.state, 'user', loadUser(req, ctx).id).map((f) => f.user_id)) },
    { method: 'GET', path: '/api/v1/users/{id}/permissions', cost: 10, scopes: READ, handler: permissions },
    { method: 'GET', path: '/api/v1/users/{id}/roleAssignments', cost: 10, scopes: READ, handler: roleAssignments },
    { method: 'GET', path: '/api/v1/users/{id}/roleSettings', cost: 10, scopes: READ, handler: roleSettings },
  ],
};
