// Role records, their settings and pipeline visibility, and the service's shapes of them.
// A user's role is the users record's role_id (one role per user), so assignments are derived from it.
import { ApiError, forbidden, invalid } from '../../http/errors.js';
import type { User } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';

export const ADMIN = ['admin'];
/** Unassigned users land here; it cannot be deleted and nobody can be removed from it. */
export const DEFAULT_ROLE_ID = 1;

export const VISIBILITY_KEYS = [
  'deal_default_visibility', 'lead_default_visibility', 'org_default_visibility', 'person_default_visibility', 'product_default_visibility',
] as const;
export type VisibilityKey = (typeof VISIBILITY_KEYS)[number];
const ACCESS_KEYS = ['deal_access_level', 'org_access_level', 'person_access_level', 'product_access_level'] as const;

export interface Role { id: number; parent_role_id: number | null; name: string; active_flag: boolean; [k: string]: unknown }
/** Keyed by role id: the five default visibilities, plus access levels for the default role only. */
export interface RoleSettings { id: number; [k: string]: number }
/** Keyed by role id: pipelines hidden from the role (new pipelines are visible to every role). */
export interface RolePipelines { id: number; hidden: number[]; [k: string]: unknown }

export const roles = (s: SandboxState) => s.collection<Role>('roles', { idKind: 'int' });
export const roleSettings = (s: SandboxState) => s.collection<RoleSettings>('roleSettings', { idKind: 'given' });
export const rolePipelines = (s: SandboxState) => s.collection<RolePipelines>('rolePipelines', { idKind: 'given' });

/** Roles and permission management belong to admins; a regular user's token gets the service's 403. */
export function requireAdmin(user: User): void {
  if (!user.is_admin) throw forbidden();
}

export function roleNotFound(): ApiError {
  return new ApiError(404, 'Role not found', 'Object was not found.');
}

/** Path id → live role, or 400 for a malformed id and 404 for a missing one. */
export function loadRole(state: SandboxState, raw: string): Role {
  if (!/^\d+$/.test(raw)) throw invalid('id', 'must be an integer');
  const role = roles(state).get(Number(raw));
  if (!role) throw roleNotFound();
  return role;
}

export function usersOf(state: SandboxState, roleId: number): User[] {
  return state.users.filter((u) => u.role_id === roleId);
}

/** Depth in the hierarchy, top-level roles are level 1. */
export function levelOf(state: SandboxState, role: Role): number {
  let level = 1;
  const seen = new Set<number>([role.id]);
  for (let p = role.parent_role_id; p !== null; ) {
    const parent = roles(state).get(p);
    if (!parent || seen.has(parent.id)) break;
    seen.add(parent.id);
    level++;
    p = parent.parent_role_id;
  }
  return level;
}

/** Ids of the role's sub-roles at any depth. */
export function descendantsOf(state: SandboxState, roleId: number): Set<number> {
  const out = new Set<number>();
  const walk = (id: number) => {
    for (const r of roles(state).filter((x) => x.parent_role_id === id)) {
      if (!out.has(r.id)) {
        out.add(r.id);
        walk(r.id);
      }
    }
  };
  walk(roleId);
  return out;
}

/** List item shape (the vendor's documents): counts are strings in the service's answers. */
export function presentRole(state: SandboxState, role: Role, withLevel = true): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: role.id,
    parent_role_id: role.parent_role_id,
    name: role.name,
    active_flag: role.active_flag,
    assignment_count: String(usersOf(state, role.id).length),
    sub_role_count: String(roles(state).filter((r) => r.parent_role_id === role.id).length),
  };
  if (withLevel) out.level = levelOf(state, role);
  return out;
}

export function settingsOf(state: SandboxState, role: Role): Record<string, number> {
  const stored = roleSettings(state).get(role.id);
  const d = state.company.default_visibility;
  const out: Record<string, number> = {
    deal_default_visibility: d.deal, lead_default_visibility: d.lead, org_default_visibility: d.org,
    person_default_visibility: d.person, product_default_visibility: d.product,
  };
  for (const k of [...VISIBILITY_KEYS, ...ACCESS_KEYS]) if (stored && typeof stored[k] === 'number') out[k] = stored[k];
  if (role.id === DEFAULT_ROLE_ID) for (const k of ACCESS_KEYS) out[k] ??= 7;
  return out;
}

export function hiddenPipelines(state: SandboxState, roleId: number): number[] {
  const live = new Set(state.pipelines.all().map((p) => p.id));
  return (rolePipelines(state).get(roleId)?.hidden ?? []).filter((id) => live.has(id));
}

export function visiblePipelines(state: SandboxState, roleId: number): number[] {
  const hidden = new Set(hiddenPipelines(state, roleId));
  return state.pipelines.all().map((p) => p.id).filter((id) => !hidden.has(id));
}

/**
 * Default visible_to for a new record of `item` created by `user`: the interface says "the authorized
 * user's default for this item type", which is the `<item>_default_visibility` setting of the user's
 * role; a role that never set it has the company default.
 */
export function defaultVisibility(state: SandboxState, user: User, item: keyof SandboxState['company']['default_visibility']): number {
  const own = roleSettings(state).get(user.role_id)?.[`${item}_default_visibility`];
  return typeof own === 'number' ? own : state.company.default_visibility[item];
}
