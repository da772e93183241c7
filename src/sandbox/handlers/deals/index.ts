// Area module: deals — v2 CRUD, archived list, search, followers, products and discounts, conversion to a
// lead, and the v1-only operations. The resource is described once in spec.ts; this file wires it.
import type { Deal } from '../../store/records.js';
import type { AreaModule } from '../../types.js';
import type { ResourceSpec } from '../../engine/resource.js';
import { crudRoutes, loadRecord } from '../../engine/crud.js';
import { followerRoutes } from '../../engine/followers.js';
import { searchRoute } from '../../engine/search.js';
import { dealsByContainerRoutes } from './by-container.js';
import { dealConvertRoutes, resumeDealConversions } from './convert.js';
import { dealProductRoutes } from './products.js';
import { DEAL_READ, DEAL_WRITE, dealSpec } from './spec.js';
import { dealV1Routes } from './v1.js';

/** Archived deals are a list of their own (v2 lists leave them out); the vendor's index charges 20 a page for it. */
const archivedSpec: ResourceSpec<Deal> = {
  ...dealSpec,
  base: '/api/v2/deals/archived',
  costs: { ...dealSpec.costs, list: 20 },
  list: { ...dealSpec.list, rows: (state) => state.deals.filter((d) => d.is_archived) },
};

export const dealsArea: AreaModule = {
  name: 'deals',
  routes: [
    // Literal paths first: /deals/archived, /deals/search and /deals/products before /deals/{id}.
    ...crudRoutes(archivedSpec, ['list']),
    searchRoute(dealSpec),
    ...dealProductRoutes,
    ...dealV1Routes,
    ...dealsByContainerRoutes,
    ...crudRoutes(dealSpec),
    ...followerRoutes({ object: 'deal', v2: '/api/v2/deals/{id}', v1: '/api/v1/deals/{id}', v1Key: 'deal_id', read: DEAL_READ, write: DEAL_WRITE, load: (req, ctx) => loadRecord(dealSpec, ctx.state, req) }),
    ...dealConvertRoutes,
  ],
  onStart: resumeDealConversions,
};
