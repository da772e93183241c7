import type { AreaModule } from '../types.js';

// Placeholder until this area's handlers land.
export const activityFieldsArea: AreaModule = { name: 'activity-fields', routes: [] };
