import type { AreaModule } from '../types.js';

// Placeholder until this area's handlers land.
export const dealInstallmentsArea: AreaModule = { name: 'deal-installments', routes: [] };
