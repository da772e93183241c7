// Shared pieces of the persons handlers: scopes, the company's contact-sync and
// marketing-app switches, the person-side collections, loaders and time formats.
import { forbidden, invalid, notFound } from '../../http/errors.js';
import type { DealProduct, FileRec, Participant, Person, Product, User } from '../../store/records.js';
import { customFieldMap as fieldMap, type FieldRecord } from '../../engine/fields/store.js';
import type { SandboxState } from '../../store/state.js';
import { canSee } from '../../engine/access.js';
import { fieldByCode } from '../../engine/fields/store.js';

export const READ = ['contacts:read', 'contacts:full'];
/** Changelog and flow are "recents" (the vendor's documents). */
export const RECENTS = ['recents:read'];
export const MAIL = ['mail:read', 'mail:full'];
export const SEARCH = ['contacts:read', 'contacts:full', 'search:read'];

/** Company switches that decide which person fields exist (interface, Person). Kept on the company record. */
export interface PersonSettings { contact_sync_enabled?: boolean; marketing_app_enabled?: boolean }
export const settings = (state: SandboxState): PersonSettings => state.company as unknown as PersonSettings;
export const contactSync = (state: SandboxState) => settings(state).contact_sync_enabled === true;
export const marketingApp = (state: SandboxState) => settings(state).marketing_app_enabled === true;

export const CONTACT_SYNC_FIELDS = ['ims', 'postal_address', 'notes', 'birthday', 'job_title'] as const;

export interface Picture {
  id: number; item_type: 'person'; item_id: number; added_by_user_id: number; active_flag: boolean; file_size: number;
  pictures: { '128': string; '512': string }; add_time: string; [k: string]: unknown;
}
export interface Party { id: number; email_address: string; name: string; linked_person_id: number | null; linked_person_name: string | null; mail_message_party_id: number }
export interface MailMessage {
  id: number; person_id: number; from: Party[]; to: Party[]; cc: Party[]; bcc: Party[]; subject: string; snippet: string; body: string;
  mail_thread_id: number; user_id: number; sent_flag: 0 | 1; has_attachments_flag: 0 | 1; read_flag: 0 | 1; message_time: string;
  add_time: string; update_time: string; [k: string]: unknown;
}
export type { DealProduct, FileRec, Participant, Product };
export { followers, followerChanges, followersOf } from '../../engine/followers.js';
export { changes, changesOf } from '../../engine/changelog.js';
export const files = (s: SandboxState) => s.files;
export const products = (s: SandboxState) => s.products;
export const dealProducts = (s: SandboxState) => s.dealProducts;
export const participants = (s: SandboxState) => s.participants;
/** Person labels are the options of the person field `label_ids`, as organization labels are of theirs. */
export const personLabels = (s: SandboxState) => fieldByCode(s, 'person', 'label_ids')?.options ?? [];
export const pictures = (s: SandboxState) => s.collection<Picture>('personPictures', { idKind: 'int' });
export const mailMessages = (s: SandboxState) => s.collection<MailMessage>('personMailMessages', { idKind: 'int' });

/** Custom person fields by key. */
export function customFieldMap(state: SandboxState): Map<string, FieldRecord> {
  return fieldMap(state, 'person');
}

export const personNotFound = () => notFound('Person not found');

/** A live person the user may see: 400 for a bad id, 404 when missing or deleted, 403 when hidden. */
export function loadPerson(state: SandboxState, user: User, raw: string): Person {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid('id', 'must be a positive integer');
  const p = state.persons.get(Number(raw));
  if (!p) throw personNotFound();
  if (!canSee(state, user, p)) throw forbidden();
  return p;
}

export { parseTime, v1Time, v2Time } from '../../engine/time.js';

/** Deals a person is on: as the contact person or as a participant. Includes deleted ones when asked. */
export function dealsOf(state: SandboxState, personId: number, withDeleted = false) {
  const extra = new Set(participants(state).filter((x) => x.person_id === personId).map((x) => x.deal_id));
  const all = withDeleted ? state.deals.allWithDeleted() : state.deals.all();
  return all.filter((d) => d.person_id === personId || extra.has(d.id));
}
