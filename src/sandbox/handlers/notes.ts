import type { AreaModule } from '../types.js';

// Placeholder until this area's handlers land.
export const notesArea: AreaModule = { name: 'notes', routes: [] };
