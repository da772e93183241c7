// Area module: webhooks (v1 list/create/delete) and their delivery from the event bus.
import type { AreaModule } from '../../types.js';
import { startDelivery } from './delivery.js';
import { webhookRoutes } from './routes.js';
import { seedWebhooks } from './seed.js';

export const webhooksArea: AreaModule = {
  name: 'webhooks',
  routes: webhookRoutes,
  seed: seedWebhooks,
  onStart: startDelivery,
};
