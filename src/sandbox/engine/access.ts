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

/** The links whose target carries its own visibility (owner and visible_to), with their collections. */
const VISIBLE_LINKS = [['lead_id', 'leads'], ['deal_id', 'deals'], ['person_id', 'persons'], ['org_id', 'organizations']] as const;

/**
 * Whether the user may see a record attached to items (a note, a comment's note, a file, an activity):
 * only when they may see every item it is attached to that has a visibility of its own. A note on a lead
 * the user gets 403 for is hidden as the lead is (lists leave it out, a read is 403, webhooks skip it).
 * Deleted items keep gating what was attached to them.
 */
export function canSeeAttached(state: SandboxState, user: User, rec: Record<string, unknown>): boolean {
  if (user.is_admin) return true;
  for (const [key, name] of VISIBLE_LINKS) {
    const id = rec[key];
    if (id === null || id === undefined || (typeof id !== 'string' && typeof id !== 'number')) continue;
    const item = state.collection(name).getAny(id) as { owner_id?: unknown; visible_to?: string | number } | undefined;
    if (item && typeof item.owner_id === 'number' && !canSee(state, user, item as { owner_id: number; visible_to: string | number })) return false;
  }
  return true;
}
