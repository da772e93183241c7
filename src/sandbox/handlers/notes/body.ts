// Reading a note create/update body: every field's own rule, in the service's 400 form.
// Rules that need the note as a whole (a target is required, pins need targets, author
// changes) are in crud.ts.
import { invalid } from '../../http/errors.js';
import { has, objectBody, optInt, optString, rejectUnknown, reqString, UUID } from '../../http/validate.js';
import type { SandboxState } from '../../store/state.js';
import { CONTENT_MAX, PINS, TARGET_NOUN, TARGETS, targetRecord, type Target } from './common.js';

export interface NoteChanges {
  content?: string;
  lead_id?: string;
  deal_id?: number;
  person_id?: number;
  org_id?: number;
  project_id?: number;
  task_id?: number;
  user_id?: number;
  add_time?: string;
  /** Pinned flags as stored (booleans, as the service answers them). */
  pins: Partial<Record<keyof typeof PINS, boolean>>;
}

const NOTE_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

export function isNoteTime(v: string): boolean {
  const m = NOTE_TIME.exec(v);
  if (!m) return false;
  const d = new Date(`${m[1]}T${m[2]}Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 19) === `${m[1]}T${m[2]}`;
}

export function parseNoteBody(state: SandboxState, raw: unknown, mode: 'create' | 'update'): NoteChanges {
  const b = objectBody(raw);
  rejectUnknown(b, ['content', ...TARGETS, 'user_id', 'add_time', ...Object.keys(PINS)]);
  const c: NoteChanges = { pins: {} };

  const content = mode === 'create' ? reqString(b, 'content', { max: CONTENT_MAX }) : optString(b, 'content', { max: CONTENT_MAX });
  if (content != null) c.content = content;

  for (const t of TARGETS) {
    if (!has(b, t)) continue;
    let id: string | number;
    if (t === 'lead_id') {
      const v = b[t];
      if (v === null) throw invalid(t, 'must not be null');
      if (typeof v !== 'string' || !UUID.test(v)) throw invalid(t, 'must be a UUID');
      id = v;
    } else {
      id = optInt(b, t, { min: 1 }) as number;
    }
    if (!targetRecord(state, t, id)) throw invalid(t, `${TARGET_NOUN[t]} ${id} does not exist`);
    (c as unknown as Record<Target, string | number>)[t] = id;
  }

  const userId = optInt(b, 'user_id', { min: 1 });
  if (userId != null) {
    if (!state.users.get(userId)?.active_flag) throw invalid('user_id', `user ${userId} does not exist`);
    c.user_id = userId;
  }

  if (has(b, 'add_time')) {
    const v = b.add_time;
    if (typeof v !== 'string' || !isNoteTime(v)) throw invalid('add_time', 'must be a UTC date-time in YYYY-MM-DD HH:MM:SS format');
    c.add_time = v;
  }

  for (const flag of Object.keys(PINS)) {
    if (!has(b, flag)) continue;
    const v = b[flag];
    // number enum [0, 1] in the vendor spec; "0"/"1" arrive from form bodies.
    if (v === 1 || v === '1') c.pins[flag] = true;
    else if (v === 0 || v === '0') c.pins[flag] = false;
    else throw invalid(flag, 'must be 0 or 1');
  }
  return c;
}
