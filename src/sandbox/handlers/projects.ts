// Area module: projects (v2 CRUD, lists, archive, search, changelog, permitted users; v1
// activities, groups, plan, tasks). The implementation lives in ./projects/.
import type { AreaModule } from '../types.js';
import { crudRoutes } from './projects/crud.js';
import { searchRoutes } from './projects/search.js';
import { seedProjects } from './projects/seed.js';
import { subresourceRoutes } from './projects/subresources.js';
import { projectV1Routes } from './projects/v1-and-boards.js';

export { PROJECT_FIELD_KEYS } from './projects/seed.js';

export const projectsArea: AreaModule = {
  name: 'projects',
  routes: [...crudRoutes, ...searchRoutes, ...subresourceRoutes, ...projectV1Routes],
  // Boards and phases are seeded here too (the phases area only serves them).
  seed: seedProjects,
};
