// Area module: notes and their comments (v1 only).
import type { AreaModule } from '../../types.js';
import { commentRoutes } from './comments.js';
import { noteRoutes } from './crud.js';
import { seedNotes } from './seed.js';

export const notesArea: AreaModule = {
  name: 'notes',
  routes: [...noteRoutes, ...commentRoutes],
  seed: seedNotes,
};
