import { ok } from '../http/envelope.js';
import type { AreaModule } from '../types.js';

/**
 * Read-only lists the interface does not specify (project boards, currencies), served so that clients
 * can offer choices (crmctl's prompts). Paths, costs and scopes are the vendor's OpenAPI's.
 */
export const referenceListsArea: AreaModule = {
  name: 'reference-lists',
  routes: [
    {
      method: 'GET', path: '/api/v1/projects/boards', cost: 20, scopes: ['projects:read', 'projects:full'],
      handler: (_req, ctx) => ok(ctx.state.collection<{ id: number }>('projectBoards', { idKind: 'int' }).all()),
    },
    {
      method: 'GET', path: '/api/v1/currencies', cost: 20, scopes: ['base'],
      // term: searched for in the name and the code (the documents), case-insensitive.
      handler: (req, ctx) => {
        const term = req.query.str('term')?.trim().toLowerCase();
        const all = ctx.state.currencies.all();
        return ok(term ? all.filter((c) => `${c.name}\n${c.code}`.toLowerCase().includes(term)) : all);
      },
    },
  ],
};
