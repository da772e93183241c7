// Mailbox records (the vendor's documents), lookups and scopes. A mailbox is personal: a user
// reaches only the threads and messages of their own mail connection (others get 404).
import { ApiError, invalid } from '../../http/errors.js';
import type { Rec } from '../../store/collection.js';
import type { SandboxState } from '../../store/state.js';

export const MAIL_READ = ['mail:read', 'mail:full'];
export const MAIL_WRITE = ['mail:full'];
export const FOLDERS = ['inbox', 'drafts', 'sent', 'archive'] as const;
export type Folder = (typeof FOLDERS)[number];
export type Flag = 0 | 1;

export interface Party {
  id: number;
  name: string;
  latest_sent: boolean;
  email_address: string;
  message_time: number;
  linked_person_id: number | null;
  linked_person_name: string | null;
  mail_message_party_id: number;
  linked_organization_id: number | null;
}

export interface MailThread extends Rec {
  id: number;
  account_id: string;
  user_id: number;
  subject: string;
  snippet: string;
  snippet_draft: string | null;
  snippet_sent: string | null;
  read_flag: Flag;
  has_attachments_flag: Flag;
  has_inline_attachments_flag: Flag;
  has_real_attachments_flag: Flag;
  deleted_flag: Flag;
  synced_flag: Flag;
  smart_bcc_flag: Flag;
  mail_link_tracking_enabled_flag: Flag;
  has_draft_flag: Flag;
  has_sent_flag: Flag;
  archived_flag: Flag;
  shared_flag: Flag;
  external_deleted_flag: Flag;
  first_message_to_me_flag: Flag;
  all_messages_sent_flag: Flag;
  mail_tracking_status: string | null;
  parties: { to: Party[]; from: Party[] };
  drafts_parties: Party[];
  folders: Folder[];
  version: number;
  message_count: number;
  last_message_timestamp: string;
  first_message_timestamp: string;
  last_message_sent_timestamp: string | null;
  last_message_received_timestamp: string | null;
  add_time: string;
  update_time: string;
  deal_id: number | null;
  deal_status: string | null;
  lead_id: string | null;
}

export interface MessageParty {
  id: number;
  email_address: string;
  name: string;
  linked_person_id: number | null;
  linked_person_name: string | null;
  mail_message_party_id: number;
}

export interface MailMessage extends Rec {
  id: number;
  from: MessageParty[];
  to: MessageParty[];
  cc: MessageParty[];
  bcc: MessageParty[];
  body_url: string;
  /** Kept in the record, sent only with include_body=1. */
  body: string;
  account_id: string;
  user_id: number;
  mail_thread_id: number;
  subject: string;
  snippet: string;
  mail_tracking_status: 'opened' | 'not opened' | null;
  mail_link_tracking_enabled_flag: Flag;
  read_flag: Flag;
  draft: string | null;
  draft_flag: Flag;
  synced_flag: Flag;
  deleted_flag: Flag;
  has_body_flag: Flag;
  sent_flag: Flag;
  sent_from_pipedrive_flag: Flag;
  smart_bcc_flag: Flag;
  message_time: string;
  add_time: string;
  update_time: string;
  has_attachments_flag: Flag;
  has_inline_attachments_flag: Flag;
  has_real_attachments_flag: Flag;
}

export const threads = (s: SandboxState) => s.collection<MailThread>('mailThreads', { idKind: 'int' });
export const messages = (s: SandboxState) => s.collection<MailMessage>('mailMessages', { idKind: 'int' });

/** The mail service answers in its own envelope (vendor examples): success plus statusCode/statusText/service. */
export function mailOk(data: unknown) {
  return { status: 200, body: { success: true, statusCode: 2000, statusText: 'Success', service: 'email-api', data } };
}

function intId(raw: string): number {
  if (!/^\d+$/.test(raw)) throw invalid('id', 'must be an integer');
  return Number(raw);
}

export function loadThread(state: SandboxState, userId: number, raw: string): MailThread {
  const t = threads(state).get(intId(raw));
  if (!t || t.user_id !== userId) throw new ApiError(404, 'Mail thread not found', 'Object was not found.');
  return t;
}

export function loadMessage(state: SandboxState, userId: number, raw: string): MailMessage {
  const m = messages(state).get(intId(raw));
  if (!m || m.user_id !== userId) throw new ApiError(404, 'Mail message not found', 'Object was not found.');
  return m;
}

/** A message as sent: without its body unless asked for. */
export function presentMessage(m: MailMessage, withBody: boolean): Record<string, unknown> {
  const { body, ...rest } = structuredClone(m);
  return withBody ? { ...rest, body } : rest;
}
