import type { AreaModule } from '../types.js';

// Placeholder until this area's handlers land.
export const legacyTeamsArea: AreaModule = { name: 'legacy-teams', routes: [] };
