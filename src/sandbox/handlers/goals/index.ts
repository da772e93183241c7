// Area module: goals (v1 find, create, update, delete, results).
import type { AreaModule } from '../../types.js';
import { goalRoutes } from './routes.js';
import { seedGoals } from './seed.js';

export const goalsArea: AreaModule = { name: 'goals', routes: goalRoutes, seed: seedGoals };
