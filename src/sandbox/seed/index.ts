// Seeding entry point: the core skeleton, the demo data when asked, then each
// area's own seed hook (so an area can add its records without editing this file), then the demo's
// dirt (duplicates, stale deals, bad phones: what the audit finds; seed/dirt.ts).
import type { SandboxState, SeedName } from '../store/state.js';
import type { AreaModule } from '../types.js';
import { seedBase } from './base.js';
import { seedArchivedDeal, seedDemo } from './demo.js';
import { seedDirt } from './dirt.js';

export function makeSeeder(areas: AreaModule[]) {
  return (state: SandboxState, name: SeedName): void => {
    seedBase(state);
    if (name === 'demo') seedDemo(state);
    for (const a of areas) a.seed?.(state, name);
    // After the demo's own records, so those keep the ids other tests know; the archived deal last of all
    // (tests find it by its flag, while the audit's tests name the dirt's ids).
    if (name === 'demo') seedDirt(state);
    if (name === 'demo') seedArchivedDeal(state);
  };
}

export { DEAL_FIELD_KEYS, CHANNELS, USERS, hex40, seedUuid } from './base.js';
