import type { AreaModule } from '../types.js';

// Placeholder until this area's handlers land.
export const personsArea: AreaModule = { name: 'persons', routes: [] };
