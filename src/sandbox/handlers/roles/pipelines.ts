// Pipeline visibility of a role: GET lists visible (or hidden) ids; PUT adds to / removes from the visible set.
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { has, objectBody, rejectUnknown } from '../../http/validate.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { ADMIN, hiddenPipelines, loadRole, requireAdmin, rolePipelines, visiblePipelines } from './store.js';

function list(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const role = loadRole(ctx.state, req.params.id!);
  const visible = req.query.bool('visible') ?? true;
  return ok({ pipeline_ids: visible ? visiblePipelines(ctx.state, role.id) : hiddenPipelines(ctx.state, role.id), visible });
}

/** A list of existing pipeline ids under visible_pipeline_ids.<member>. */
function pipelineIds(state: SandboxState, obj: Record<string, unknown>, member: 'add' | 'remove'): number[] {
  if (!has(obj, member)) return [];
  const field = `visible_pipeline_ids.${member}`;
  const v = obj[member];
  if (!Array.isArray(v)) throw invalid(field, 'must be an array of pipeline ids');
  return v.map((x) => {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 1) throw invalid(field, 'must contain only pipeline ids (positive integers)');
    if (!state.pipelines.has(x)) throw invalid(field, `pipeline ${x} does not exist`);
    return x;
  });
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const { state } = ctx;
  const role = loadRole(state, req.params.id!);
  const b = objectBody(req.body);
  rejectUnknown(b, ['visible_pipeline_ids']);
  const v = b.visible_pipeline_ids;
  if (v === undefined || v === null) throw invalid('visible_pipeline_ids', 'is required');
  if (typeof v !== 'object' || Array.isArray(v)) throw invalid('visible_pipeline_ids', 'must be an object with add and/or remove lists');
  const obj = v as Record<string, unknown>;
  rejectUnknown(obj, ['add', 'remove']);
  const add = pipelineIds(state, obj, 'add');
  const remove = pipelineIds(state, obj, 'remove');
  if (add.length === 0 && remove.length === 0) throw invalid('visible_pipeline_ids', 'give at least one pipeline id in add or remove');
  const both = add.filter((id) => remove.includes(id));
  if (both.length) throw invalid('visible_pipeline_ids', `pipeline ${both[0]} cannot be both added and removed`);

  const hidden = new Set(hiddenPipelines(state, role.id));
  for (const id of add) hidden.delete(id);
  for (const id of remove) hidden.add(id);
  const next = [...hidden].sort((a, b2) => a - b2);
  if (rolePipelines(state).getAny(role.id)) rolePipelines(state).update(role.id, { hidden: next }, { userId: req.userId });
  else rolePipelines(state).insert({ id: role.id, hidden: next }, { userId: req.userId });
  return ok({ pipeline_ids: visiblePipelines(state, role.id), visible: true });
}

export const pipelineRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/roles/{id}/pipelines', cost: 20, scopes: ADMIN, handler: list },
  { method: 'PUT', path: '/api/v1/roles/{id}/pipelines', cost: 10, scopes: ADMIN, handler: update },
];
