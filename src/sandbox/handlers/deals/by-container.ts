// The deprecated v1 lists of the deals in one pipeline or one stage. Still documented and served by the
// service (the documents point to GET /api/v2/deals?pipeline_id= / ?stage_id= instead). Who owns the
// listed deals follows the documents: everyone=1 → everyone's; user_id → that user's (filter_id not
// considered); filter_id → the filter's; none of these → the authorized user's. Only open deals: the
// lists are the pipeline view's columns.
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { offsetPage } from '../../http/paginate.js';
import type { Deal } from '../../store/records.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee } from '../../engine/access.js';
import { applyFilter } from '../../engine/filter-eval.js';
import { loadRecord } from '../../engine/crud.js';
import { pipelineSpec, stageSpec } from '../pipelines.js';
import { v1Deal } from './present.js';
import { DEAL_READ } from './spec.js';

function containerDeals(req: SandboxRequest, ctx: HandlerContext, inside: (d: Deal) => boolean) {
  const { state } = ctx;
  const q = req.query;
  let rows = state.deals.filter((d) => inside(d) && !d.is_archived && d.status === 'open' && canSee(state, req.user, d));
  const everyone = q.bool('everyone');
  const userId = q.int('user_id', { min: 1 });
  const filterId = q.int('filter_id', { min: 1 });
  if (everyone) { /* every owner */ }
  else if (userId !== undefined) rows = rows.filter((d) => d.owner_id === userId);
  else if (filterId !== undefined) rows = applyFilter(state, filterId, 'deals', rows);
  else rows = rows.filter((d) => d.owner_id === req.userId);
  rows.sort((a, b) => a.id - b.id);
  const page = offsetPage(rows, q);
  return ok(page.data.map((d) => v1Deal(state, d)), page.additional_data);
}

export const dealsByContainerRoutes: RouteDef[] = [
  {
    method: 'GET', path: '/api/v1/pipelines/{id}/deals', cost: 20, scopes: DEAL_READ,
    handler: (req, ctx) => {
      const p = loadRecord(pipelineSpec, ctx.state, req);
      const stageId = req.query.int('stage_id', { min: 1 });
      if (stageId !== undefined && ctx.state.stages.get(stageId)?.pipeline_id !== p.id) throw invalid('stage_id', `stage ${stageId} is not a stage of pipeline ${p.id}`);
      return containerDeals(req, ctx, (d) => d.pipeline_id === p.id && (stageId === undefined || d.stage_id === stageId));
    },
  },
  {
    method: 'GET', path: '/api/v1/stages/{id}/deals', cost: 20, scopes: DEAL_READ,
    handler: (req, ctx) => {
      const s = loadRecord(stageSpec, ctx.state, req);
      return containerDeals(req, ctx, (d) => d.stage_id === s.id);
    },
  },
];
