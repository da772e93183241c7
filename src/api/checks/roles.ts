import { roleOps } from '../operations/roles.js';
import { ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../entry-types.js';
import type { CheckReader } from '../entry-types.js';

interface RoleRow { id: number; parent_role_id: number | null }

async function allRoles(ctx: CheckReader): Promise<RoleRow[]> {
  const out: RoleRow[] = [];
  for await (const r of ctx.readAll(roleOps.list, {})) out.push(r as RoleRow);
  return out;
}

function subRoles(roles: RoleRow[], id: number): Set<number> {
  const out = new Set<number>();
  const walk = (parent: number) => {
    for (const r of roles) {
      if (r.parent_role_id !== parent || r.id === parent || out.has(r.id)) continue;
      out.add(r.id);
      walk(r.id);
    }
  };
  walk(id);
  return out;
}

/**
 * create/update: the parent must be an existing role and, on update, neither the role itself
 * nor one of its sub-roles (that would make a loop). Reads the role list; sends no write.
 */
export async function parentRolePreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const parent = (input.body as { parent_role_id?: number | null } | undefined)?.parent_role_id;
  if (parent === undefined || parent === null) return;
  const self = input.params.id as number | undefined;
  if (self === parent) throw new ValidationError([{ field: '--parent-role-id', rule: 'cannot be the role itself' }]);
  const roles = await allRoles(ctx);
  if (!roles.some((r) => r.id === parent)) {
    throw new ValidationError([{ field: '--parent-role-id', rule: `no such role: ${parent} (see crmctl roles list)` }]);
  }
  if (self !== undefined && subRoles(roles, self).has(parent)) {
    throw new ValidationError([{ field: '--parent-role-id', rule: `role ${parent} is a sub-role of role ${self}; a role cannot move under its own sub-role` }]);
  }
}

/** assignments remove: the user must currently hold this role (else the service refuses). */
export async function assignedUserPreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const userId = (input.body as { user_id: number }).user_id;
  for await (const a of ctx.readAll(roleOps.assignmentsList, { params: { id: input.params.id as number } })) {
    if ((a as { user_id: number }).user_id === userId) return;
  }
  throw new ValidationError([{ field: '--user-id', rule: `user ${userId} is not assigned to role ${String(input.params.id)} (see crmctl roles assignments list ${String(input.params.id)})` }]);
}

/** pipelines update: every id must be a pipeline of the account (visible or hidden for the role). */
export async function pipelineIdsPreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const change = (input.body as { visible_pipeline_ids: { add?: number[]; remove?: number[] } }).visible_pipeline_ids;
  const known = new Set<number>();
  for (const visible of [true, false]) {
    const answer = (await ctx.read(roleOps.pipelinesList, { params: { id: input.params.id as number }, query: { visible } })) as { pipeline_ids?: number[] } | null;
    for (const id of answer?.pipeline_ids ?? []) known.add(id);
  }
  const issues = (['add', 'remove'] as const)
    .map((k) => ({ k, missing: (change[k] ?? []).filter((id) => !known.has(id)) }))
    .filter((x) => x.missing.length)
    .map((x) => ({ field: `--${x.k}`, rule: `no such pipeline: ${x.missing.join(', ')} (known: ${[...known].sort((a, b) => a - b).join(', ') || 'none'})` }));
  if (issues.length) throw new ValidationError(issues);
}
