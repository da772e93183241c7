// Shared pieces of the notes handlers: scopes, limits, lookups and the response form of a note.
import { ApiError, forbidden, invalid } from '../../http/errors.js';
import { canSeeAttached } from '../../engine/access.js';
import type { Rec } from '../../store/collection.js';
import type { Note, User } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';

export const NOTE_READ = ['deals:read', 'deals:full', 'contacts:read', 'contacts:full'];
export const NOTE_WRITE = ['deals:full', 'contacts:full'];

/** "about 100,000 characters" (interface Limits); the sandbox counts the content as sent, before sanitizing. */
export const CONTENT_MAX = 100_000;

export const TARGETS = ['lead_id', 'deal_id', 'person_id', 'org_id', 'project_id', 'task_id'] as const;
export type Target = (typeof TARGETS)[number];
export const PINS: Record<string, Target> = {
  pinned_to_lead_flag: 'lead_id',
  pinned_to_deal_flag: 'deal_id',
  pinned_to_organization_flag: 'org_id',
  pinned_to_person_flag: 'person_id',
  pinned_to_project_flag: 'project_id',
  pinned_to_task_flag: 'task_id',
};

export interface Comment extends Rec {
  id: string;
  uuid: string;
  active_flag: boolean;
  add_time: string;
  update_time: string;
  content: string;
  object_id: string;
  object_type: 'note';
  user_id: number;
  updater_id: number;
  company_id: number;
}

export const comments = (s: SandboxState) => s.collection<Comment>('noteComments', { idKind: 'uuid' });

/** v1 note times: "YYYY-MM-DD HH:MM:SS" in UTC. */

/** Generic v1 404 body (the vendor shows none for notes; this is its generic error schema). */
export const noteNotFound = () => new ApiError(404, 'Note not found', 'Object was not found.');
export const commentNotFound = () => new ApiError(404, 'Comment not found', 'Object was not found.');

/** A note by path id: 400 when malformed, 404 when missing, 403 when the user may not see an item it is attached to. */
export function loadNote(state: SandboxState, user: User, rawId: string): Note {
  if (!/^\d+$/.test(rawId)) throw invalid('id', 'must be an integer');
  const note = state.notes.get(Number(rawId));
  if (!note) throw noteNotFound();
  if (!canSeeAttached(state, user, note)) throw forbidden();
  return note;
}

/**
 * Records of areas owned elsewhere (projects, tasks) are looked up only when their collection
 * exists, so that asking never creates it with the wrong options.
 */
function foreign(state: SandboxState, names: string[], id: number): Rec | undefined {
  for (const n of names) {
    if (!state.collectionNames().includes(n)) continue;
    const r = state.collection(n).get(id);
    if (r) return r;
  }
  return undefined;
}

const PROJECT_COLLECTIONS = ['projects'];
const TASK_COLLECTIONS = ['tasks', 'projectTasks'];

/** The live record a target id points at, or undefined. */
export function targetRecord(state: SandboxState, target: Target, id: string | number): Rec | undefined {
  switch (target) {
    case 'lead_id': return state.leads.get(String(id));
    case 'deal_id': return state.deals.get(Number(id));
    case 'person_id': return state.persons.get(Number(id));
    case 'org_id': return state.organizations.get(Number(id));
    case 'project_id': return foreign(state, PROJECT_COLLECTIONS, Number(id));
    case 'task_id': return foreign(state, TASK_COLLECTIONS, Number(id));
  }
}

export const TARGET_NOUN: Record<Target, string> = {
  lead_id: 'lead', deal_id: 'deal', person_id: 'person', org_id: 'organization', project_id: 'project', task_id: 'task',
};

/** Response form (the vendor's documents): the stored note plus names of what it is attached to and its author. */
/** The note's members as the service answers them: the pinned flags are the numbers 0/1 (interface). */
export function noteMembers(note: Note): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(note);
  for (const flag of Object.keys(PINS)) if (flag in out) out[flag] = out[flag] ? 1 : 0;
  return out;
}

export function presentNote(state: SandboxState, note: Note, viewer: User): Record<string, unknown> {
  // id first, as the service lists it (the store appends it after the other fields).
  const { id, ...rest } = noteMembers(note);
  const out: Record<string, unknown> = { id, ...rest };
  const title = (r: Rec | undefined) => (r ? { title: (r.title ?? r.name ?? null) as string | null } : null);
  const name = (r: Rec | undefined) => (r ? { name: (r.name ?? r.title ?? null) as string | null } : null);
  out.deal = note.deal_id != null ? title(state.deals.getAny(note.deal_id)) : null;
  out.person = note.person_id != null ? name(state.persons.getAny(note.person_id)) : null;
  out.organization = note.org_id != null ? name(state.organizations.getAny(note.org_id)) : null;
  out.project = note.project_id != null ? title(targetRecord(state, 'project_id', note.project_id)) : null;
  out.task = note.task_id != null ? title(targetRecord(state, 'task_id', note.task_id)) : null;
  const author = state.users.getAny(note.user_id);
  out.user = author ? { email: author.email, icon_url: author.icon_url, is_you: author.id === viewer.id, name: author.name } : null;
  return out;
}
