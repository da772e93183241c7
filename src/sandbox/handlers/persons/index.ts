// Area module: persons — the 19 read operations of the interface (v2 and v1 forms).
import type { AreaModule } from '../../types.js';
import { listRoutes } from './lists.js';
import { relatedRoutes } from './related.js';
import { searchRoutes } from './search.js';
import { seedPersons } from './seed.js';

export const personsArea: AreaModule = {
  name: 'persons',
  routes: [...listRoutes, ...searchRoutes, ...relatedRoutes],
  seed: seedPersons,
};
