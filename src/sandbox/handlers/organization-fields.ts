import type { AreaModule } from '../types.js';

// Placeholder until this area's handlers land.
export const organizationFieldsArea: AreaModule = { name: 'organization-fields', routes: [] };
