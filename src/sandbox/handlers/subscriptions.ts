import type { AreaModule } from '../types.js';

// Placeholder until this area's handlers land.
export const subscriptionsArea: AreaModule = { name: 'subscriptions', routes: [] };
