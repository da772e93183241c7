// Area module: roles (v1, admin): CRUD, assignments, visibility settings, pipeline visibility.
import type { AreaModule } from '../../types.js';
import { assignmentRoutes } from './assignments.js';
import { crudRoutes } from './crud.js';
import { pipelineRoutes } from './pipelines.js';
import { seedRoles } from './seed.js';
import { settingRoutes } from './settings.js';

export const rolesArea: AreaModule = {
  name: 'roles',
  routes: [...crudRoutes, ...assignmentRoutes, ...settingRoutes, ...pipelineRoutes],
  seed: seedRoles,
};
