// Area module: permission sets (v1, admin, read-only). Ids are UUID strings; a set's
// assignments are kept in their own collection so assignment_count is always derived.
import { ok } from '../http/envelope.js';
import { ApiError, forbidden } from '../http/errors.js';
import { offsetPage } from '../http/paginate.js';
import { seedUuid } from '../seed/base.js';
import type { SandboxState, SeedName } from '../store/state.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../types.js';

const ADMIN = ['admin'];
const APPS = ['sales', 'projects', 'campaigns', 'global', 'account_settings', 'partnership', 'nova'] as const;
type App = (typeof APPS)[number];

interface PermissionSet {
  id: string; name: string; description: string; app: App; type: 'admin' | 'manager' | 'regular' | 'custom'; contents: string[];
  [k: string]: unknown;
}
interface Assignment { id: number; user_id: number; permission_set_id: string; [k: string]: unknown }

const sets = (s: SandboxState) => s.collection<PermissionSet>('permissionSets', { idKind: 'given' });
const assignments = (s: SandboxState) => s.collection<Assignment>('permissionSetAssignments', { idKind: 'int' });

const notFound = () => new ApiError(404, 'Permission set not found', 'Object was not found.');

function access(req: SandboxRequest): void {
  if (!req.user.is_admin) throw forbidden();
}

function load(state: SandboxState, id: string): PermissionSet {
  const set = sets(state).get(id);
  if (!set) throw notFound();
  return set;
}

function present(state: SandboxState, s: PermissionSet, withContents: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: s.id, name: s.name, description: s.description, app: s.app, type: s.type,
    assignment_count: assignments(state).filter((a) => a.permission_set_id === s.id).length,
  };
  if (withContents) out.contents = [...s.contents];
  return out;
}

function list(req: SandboxRequest, ctx: HandlerContext) {
  access(req);
  const app = req.query.oneOf('app', APPS);
  const rows = sets(ctx.state).filter((s) => app === undefined || s.app === app);
  return ok(rows.map((s) => present(ctx.state, s, false)));
}

function get(req: SandboxRequest, ctx: HandlerContext) {
  access(req);
  return ok(present(ctx.state, load(ctx.state, req.params.id!), true));
}

function listAssignments(req: SandboxRequest, ctx: HandlerContext) {
  access(req);
  const set = load(ctx.state, req.params.id!);
  const rows = assignments(ctx.state).filter((a) => a.permission_set_id === set.id);
  // The service answers 404 when the set has no assignments (vendor spec, the vendor's documents).
  if (rows.length === 0) throw new ApiError(404, 'No assignments found for this permission set', 'Object was not found.');
  const page = offsetPage(rows.map((a) => ({ user_id: a.user_id, permission_set_id: set.id, name: set.name })), req.query);
  return ok(page.data, page.additional_data);
}

const SALES_REGULAR = ['can_add_products', 'can_bulk_edit_items', 'can_change_visibility_of_items', 'can_delete_activities', 'can_edit_products',
  'can_edit_shared_filters', 'can_export_data_from_lists', 'can_see_deals_list_summary', 'can_see_other_users', 'can_share_filters',
  'can_use_api', 'can_use_email_tracking'];
const SALES_ADMIN = [...SALES_REGULAR, 'can_delete_deals', 'can_edit_deals_closed_date', 'can_merge_deals', 'can_modify_labels', 'can_edit_pipelines'];
const GLOBAL_REGULAR = ['can_see_company_wide_statistics', 'can_use_api', 'can_export_data_from_lists', 'can_see_other_users'];
const GLOBAL_ADMIN = [...GLOBAL_REGULAR, 'can_delete_persons', 'can_merge_persons', 'can_edit_custom_fields', 'can_manage_webhooks'];

function seed(state: SandboxState, name: SeedName): void {
  const add = (key: string, app: App, type: PermissionSet['type'], setName: string, description: string, contents: string[], users: number[]) => {
    const id = seedUuid(`permissionSet:${key}`);
    sets(state).insert({ id, name: setName, description, app, type, contents }, { silent: true });
    for (const u of users) assignments(state).insert({ user_id: u, permission_set_id: id }, { silent: true });
  };
  // Admin and regular sets exist in every account (interface).
  add('sales-admin', 'sales', 'admin', 'Deals admin', 'See and edit all sales data (deals, leads), manage company-level sales setup', SALES_ADMIN, [1]);
  add('sales-regular', 'sales', 'regular', 'Deals regular user', 'Access to sales data (deals, leads); this set is the default for new users', SALES_REGULAR, [2, 3]);
  add('global-admin', 'global', 'admin', 'Global admin', 'See and edit all cross-product data and access related features', GLOBAL_ADMIN, [1]);
  add('global-regular', 'global', 'regular', 'Global regular user', 'Access to cross-product data; this set is the default for new users', GLOBAL_REGULAR, [2, 3]);
  if (name !== 'demo') return;
  add('sales-manager', 'sales', 'manager', 'Deals manager', 'Regular access plus reports and bulk actions for the team', [...SALES_REGULAR, 'can_see_team_reports'], [3]);
  add('sales-no-export', 'sales', 'custom', 'Deals without export', 'Custom set: regular sales access without exporting lists', SALES_REGULAR.filter((c) => c !== 'can_export_data_from_lists'), []);
  add('projects-admin', 'projects', 'admin', 'Projects admin', 'Manage boards, phases and templates of projects', ['can_manage_boards', 'can_manage_templates', 'can_delete_projects'], [1]);
  add('projects-regular', 'projects', 'regular', 'Projects regular user', 'Work on projects', ['can_add_projects'], [2, 3]);
  add('campaigns-admin', 'campaigns', 'admin', 'Campaigns admin', 'Manage campaigns, senders and subscription forms', ['can_send_campaigns', 'can_manage_senders'], [1]);
  add('account-settings', 'account_settings', 'admin', 'Account settings', 'Billing, security center, company settings, user management', ['can_manage_billing', 'can_manage_users'], [1]);
}

export const permissionSetsArea: AreaModule = {
  name: 'permissionSets',
  routes: [
    { method: 'GET', path: '/api/v1/permissionSets', cost: 20, scopes: ADMIN, handler: list },
    { method: 'GET', path: '/api/v1/permissionSets/{id}', cost: 2, scopes: ADMIN, handler: get },
    { method: 'GET', path: '/api/v1/permissionSets/{id}/assignments', cost: 20, scopes: ADMIN, handler: listAssignments },
  ],
  seed,
};
