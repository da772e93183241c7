// The v1 user object the service embeds where a member names a user (a deal participant's
// added_by_user_id, a v1 list row's owner): the user's summary with `value` repeating the id.
import type { SandboxState } from '../../store/state.js';

export function v1UserRef(state: SandboxState, id: number): Record<string, unknown> {
  const u = state.users.getAny(id);
  return { id, name: u?.name ?? null, email: u?.email ?? null, has_pic: 0, pic_hash: null, active_flag: u?.active_flag ?? false, value: id };
}
