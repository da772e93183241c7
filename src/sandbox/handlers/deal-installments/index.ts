// Area module: deal installments (v2). Rules in ./routes.ts, the product rule in ./products.ts.
import type { AreaModule } from '../../types.js';
import { routes } from './routes.js';
import { seedDealInstallments } from './seed.js';

export const dealInstallmentsArea: AreaModule = { name: 'deal-installments', routes, seed: seedDealInstallments };
