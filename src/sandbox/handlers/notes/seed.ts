// Demo data of the notes area on top of the core demo notes (1-4): a pinned organization
// note, a formatted deal note, a future-dated reminder, and comments. `empty` adds nothing.
import { seedUuid } from '../../seed/base.js';
import type { Note } from '../../store/records.js';
import type { SandboxState, SeedName } from '../../store/state.js';
import { comments } from './common.js';
import { v1Time } from '../../engine/time.js';

const at = (d: number, h = 9) => new Date(Date.UTC(2025, 0, 6 + d, h, 30, 0));

export function seedNotes(state: SandboxState, name: SeedName): void {
  if (name !== 'demo') return;
  const note = (content: string, target: Partial<Note>, user: number, d: number, pins: Partial<Note> = {}) =>
    state.notes.insert({
      content, user_id: user, last_update_user_id: user, lead_id: null, deal_id: null, person_id: null, org_id: null,
      project_id: null, task_id: null, ...target, add_time: v1Time(at(d)), update_time: v1Time(at(d)), active_flag: true,
      pinned_to_lead_flag: false, pinned_to_deal_flag: false, pinned_to_organization_flag: false, pinned_to_person_flag: false,
      pinned_to_project_flag: false, pinned_to_task_flag: false, ...pins,
    }, { silent: true });
  note('<p><b>Account rules:</b> invoices go to finance@acme.example.com; PO number required.</p>', { org_id: 1 }, 1, 2, { pinned_to_organization_flag: true });
  note('<ul><li>Fleet of 140 trucks</li><li>Pilot in Q2</li><li>Decision by ops director</li></ul>', { deal_id: 4, person_id: 4, org_id: 4 }, 3, 9, { pinned_to_deal_flag: true });
  note('<p>Reminder: renewal review call.</p>', { deal_id: 1 }, 1, 60);

  const comment = (key: string, noteId: number, content: string, user: number, d: number) => {
    const id = seedUuid(`note-comment:${key}`);
    const t = at(d, 14).toISOString();
    comments(state).insert({ id, uuid: id, active_flag: true, add_time: t, update_time: t, content, object_id: String(noteId),
      object_type: 'note', user_id: user, updater_id: user, company_id: state.company.id });
  };
  comment('a', 1, 'Quote drafted, waiting for the second-site headcount.', 2, 12);
  comment('b', 1, 'Headcount is 45; sending today.', 1, 13);
  comment('c', 3, 'Countersigned copy is in Files.', 3, 9);
}
