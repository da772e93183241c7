// Area module: lead labels (v1). Not paginated; create answers 200, not 201.
import { ok } from '../http/envelope.js';
import { ApiError, invalid } from '../http/errors.js';
import { has, objectBody, optEnum, optString, rejectUnknown, reqString, UUID } from '../http/validate.js';
import type { LeadLabel } from '../store/records.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../types.js';

export const LABEL_COLORS = ['blue', 'brown', 'dark-gray', 'gray', 'green', 'orange', 'pink', 'purple', 'red', 'yellow'] as const;
const READ = ['leads:read', 'leads:full'];
const WRITE = ['leads:full'];

function load(ctx: HandlerContext, id: string): LeadLabel {
  if (!UUID.test(id)) throw invalid('id', 'must be a UUID');
  const l = ctx.state.leadLabels.get(id);
  if (!l) throw new ApiError(404, 'requested lead label not found', 'Object was not found.');
  return l;
}

function create(req: SandboxRequest, ctx: HandlerContext) {
  const b = objectBody(req.body);
  rejectUnknown(b, ['name', 'color']);
  const name = reqString(b, 'name', { max: 255 });
  if (!has(b, 'color') || b.color === null) throw invalid('color', 'is required');
  const color = optEnum(b, 'color', LABEL_COLORS)!;
  const now = ctx.now().toISOString();
  return ok(ctx.state.leadLabels.insert({ name, color, add_time: now, update_time: now }, { userId: req.userId }));
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  const label = load(ctx, req.params.id!);
  const b = objectBody(req.body);
  rejectUnknown(b, ['name', 'color']);
  const patch: Partial<LeadLabel> = {};
  const name = optString(b, 'name', { max: 255 });
  if (name) patch.name = name;
  const color = optEnum(b, 'color', LABEL_COLORS);
  if (color) patch.color = color;
  if (Object.entries(patch).some(([k, v]) => label[k] !== v)) {
    patch.update_time = ctx.now().toISOString();
    ctx.state.leadLabels.update(label.id, patch, { userId: req.userId });
  }
  return ok(ctx.state.leadLabels.get(label.id));
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  const label = load(ctx, req.params.id!);
  ctx.state.leadLabels.markDeleted(label.id, {}, { userId: req.userId });
  // A deleted label disappears from the leads that carried it.
  for (const lead of ctx.state.leads.allWithDeleted()) {
    if (lead.label_ids.includes(label.id)) {
      ctx.state.leads.update(lead.id, { label_ids: lead.label_ids.filter((x) => x !== label.id) }, { silent: true });
    }
  }
  return ok({ id: label.id });
}

export const leadLabelsArea: AreaModule = {
  name: 'leadLabels',
  routes: [
    { method: 'GET', path: '/api/v1/leadLabels', cost: 10, scopes: READ, handler: (_req, ctx) => ok(ctx.state.leadLabels.all()) },
    { method: 'POST', path: '/api/v1/leadLabels', cost: 10, scopes: WRITE, handler: create },
    { method: 'PATCH', path: '/api/v1/leadLabels/{id}', cost: 10, scopes: WRITE, handler: update },
    { method: 'DELETE', path: '/api/v1/leadLabels/{id}', cost: 6, scopes: WRITE, handler: remove },
  ],
};
