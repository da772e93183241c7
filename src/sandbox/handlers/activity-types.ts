import type { AreaModule } from '../types.js';

// Placeholder until this area's handlers land.
export const activityTypesArea: AreaModule = { name: 'activity-types', routes: [] };
