// Who may see a record. The demo company is on a Premium-family plan where
// visible_to 1 = owner only, 3/5/7 = the owner's group (all users share one group)
// or the whole company. Light/Growth plans: 1 = owner and followers, 3 = company.
// Global admins see everything.
import type { SandboxState } from '../store/state.js';
import type { User } from '../store/records.js';

export function canSee(_state: SandboxState, user: User, rec: { owner_id: number; visible_to: string | number }): boolean {
  if (user.is_admin || rec.owner_id === user.id) return true;
  return String(rec.visible_to) !== '1';
}

/** Active users who can access the record. */
export function permittedUserIds(state: SandboxState, rec: { owner_id: number; visible_to: string | number }): number[] {
  return state.users.filter((u) => u.active_flag && canSee(state, u, rec)).map((u) => u.id);
}

/** visible_to values the company's plan accepts (interface, visibility table). */
export function allowedVisibility(state: SandboxState): string[] {
  return state.company.plan === 'premium' || state.company.plan === 'ultimate' ? ['1', '3', '5', '7'] : ['1', '3'];
}
