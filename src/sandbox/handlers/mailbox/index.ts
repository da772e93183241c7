// Area module: mailbox (v1): threads by folder, messages, form-encoded thread updates.
import type { AreaModule } from '../../types.js';
import { messageRoutes } from './messages.js';
import { seedMailbox } from './seed.js';
import { threadRoutes } from './threads.js';

export const mailboxArea: AreaModule = {
  name: 'mailbox',
  routes: [...threadRoutes, ...messageRoutes],
  seed: seedMailbox,
};
