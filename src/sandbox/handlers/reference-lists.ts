import { canSee } from './access.js';
import { ok } from '../http/envelope.js';
import { cursorPage } from '../http/paginate.js';
import type { AreaModule, SandboxRequest, HandlerContext } from '../types.js';

/**
 * Read-only lists of areas the interface does not specify (Organizations, Deals, Pipelines,
 * ProjectBoards, Currencies), served so that clients can offer choices (crmctl's prompts). Paths,
 * costs and scopes are the vendor's OpenAPI's. Only the caller's visible records are listed.
 */
function visible<T extends { id: number }>(req: SandboxRequest, ctx: HandlerContext, rows: T[]): T[] {
  return rows.filter((r) => canSee(ctx.state, req.user, r as never));
}

export const referenceListsArea: AreaModule = {
  name: 'reference-lists',
  routes: [
    {
      method: 'GET', path: '/api/v2/organizations', cost: 10, scopes: ['contacts:read', 'contacts:full'],
      handler: (req, ctx) => {
        const p = cursorPage(visible(req, ctx, ctx.state.organizations.all()), req.query);
        return ok(p.data, p.additional_data);
      },
    },
    {
      method: 'GET', path: '/api/v2/deals', cost: 10, scopes: ['deals:read', 'deals:full'],
      handler: (req, ctx) => {
        const p = cursorPage(visible(req, ctx, ctx.state.deals.all()), req.query);
        return ok(p.data, p.additional_data);
      },
    },
    {
      method: 'GET', path: '/api/v2/pipelines', cost: 5, scopes: ['deals:read', 'deals:full', 'admin'],
      handler: (req, ctx) => {
        const p = cursorPage(ctx.state.pipelines.all(), req.query);
        return ok(p.data, p.additional_data);
      },
    },
    {
      method: 'GET', path: '/api/v1/projects/boards', cost: 20, scopes: ['projects:read', 'projects:full'],
      handler: (_req, ctx) => ok(ctx.state.collection<{ id: number }>('projectBoards', { idKind: 'int' }).all()),
    },
    {
      method: 'GET', path: '/api/v1/currencies', cost: 20, scopes: ['base'],
      handler: (_req, ctx) => ok(ctx.state.currencies.all()),
    },
  ],
};
