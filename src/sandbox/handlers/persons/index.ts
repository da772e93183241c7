// Area module: persons — the read operations of the interface (v2 and v1 forms) and the writes.
import type { AreaModule } from '../../types.js';
import { listRoutes } from './lists.js';
import { relatedRoutes } from './related.js';
import { searchRoutes } from './search.js';
import { seedPersons } from './seed.js';
import { writeRoutes } from './write.js';

export const personsArea: AreaModule = {
  name: 'persons',
  routes: [...listRoutes, ...searchRoutes, ...relatedRoutes, ...writeRoutes],
  seed: seedPersons,
};
