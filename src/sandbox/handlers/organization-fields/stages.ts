// GET /api/v2/stages — not an organization-fields operation. The interface names Stages without listing
// operations; this vendor v2 read (cost 5, scopes deals:read|deals:full|admin, the vendor's OpenAPI) is served here so
// that clients can check important_fields.stage_ids against active deal stages before writing.
// Move it to a stages area if one is added (the router refuses duplicate routes).
import { ok } from '../../http/envelope.js';
import { cursorPage } from '../../http/paginate.js';
import type { Stage } from '../../store/records.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { isActiveStage } from './body.js';

const SORTABLE = ['id', 'update_time', 'add_time', 'order_nr'] as const;

function list(req: SandboxRequest, ctx: HandlerContext) {
  const q = req.query;
  const pipeline = q.int('pipeline_id', { min: 1 });
  const sortBy = q.oneOf('sort_by', SORTABLE) ?? 'id';
  const direction = q.oneOf('sort_direction', ['asc', 'desc'] as const) ?? 'asc';
  let rows = ctx.state.stages.filter((s) => isActiveStage(ctx.state, s.id) && (pipeline === undefined || s.pipeline_id === pipeline));
  const key = (s: Stage) => s[sortBy] as string | number;
  rows = [...rows].sort((a, b) => {
    const c = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id;
    return direction === 'asc' ? c : -c;
  });
  const page = cursorPage(rows, q, { maxLimit: 500, field: sortBy, direction });
  return ok(page.data, page.additional_data);
}

export const stageRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v2/stages', cost: 5, scopes: ['deals:read', 'deals:full', 'admin'], handler: list },
];
