// Area module: leads (v1 CRUD and lists, v2 search and conversion).
import type { AreaModule } from '../../types.js';
import { convertRoutes, scheduleConversion } from './convert.js';
import { crudRoutes } from './crud.js';
import { searchRoutes } from './search.js';

export const leadsArea: AreaModule = {
  name: 'leads',
  routes: [...crudRoutes, ...searchRoutes, ...convertRoutes],
  // Resume conversion jobs that were pending when the state was saved.
  onStart: (ctx) => {
    for (const c of ctx.state.conversions.all()) scheduleConversion(ctx, c);
  },
};
