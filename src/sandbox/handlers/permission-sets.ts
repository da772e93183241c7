import type { AreaModule } from '../types.js';

// Placeholder until this area's handlers land.
export const permissionSetsArea: AreaModule = { name: 'permission-sets', routes: [] };
