import type { AreaModule } from '../types.js';

// Placeholder until this area's handlers land.
export const mailboxArea: AreaModule = { name: 'mailbox', routes: [] };
