// Area module: subscriptions (recurring and installment), retired from the vendor's live service
// but kept by the interface. See ./routes.ts for the rules and ./schedule.ts for the payment schedule.
import type { AreaModule } from '../../types.js';
import { routes } from './routes.js';
import { seedSubscriptions } from './seed.js';

export const subscriptionsArea: AreaModule = { name: 'subscriptions', routes, seed: seedSubscriptions };
