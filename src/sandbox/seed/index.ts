// Seeding entry point: the core skeleton, the demo data when asked, then each
// area's own seed hook (so an area can add its records without editing this file).
import type { SandboxState, SeedName } from '../store/state.js';
import type { AreaModule } from '../types.js';
import { seedBase } from './base.js';
import { seedArchivedDeal, seedDemo } from './demo.js';

export function makeSeeder(areas: AreaModule[]) {
  return (state: SandboxState, name: SeedName): void => {
    seedBase(state);
    if (name === 'demo') seedDemo(state);
    for (const a of areas) a.seed?.(state, name);
    if (name === 'demo') seedArchivedDeal(state);
  };
}

export { DEAL_FIELD_KEYS, CHANNELS, USERS, hex40, seedUuid } from './base.js';
