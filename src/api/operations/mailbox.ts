import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { flag01, id, offsetQuery, uuid } from '../schemas.js';
import { deleteRow, getRow, listRow, updateRow } from './rows.js';

const READ = ['mail:read', 'mail:full'];
const WRITE = ['mail:full'];

export const MAIL_FOLDERS = ['inbox', 'drafts', 'sent', 'archive'] as const;

export const THREAD_FIELDS = [
  'id', 'account_id', 'user_id', 'subject', 'snippet', 'snippet_draft', 'snippet_sent', 'read_flag', 'has_attachments_flag',
  'has_inline_attachments_flag', 'has_real_attachments_flag', 'deleted_flag', 'synced_flag', 'smart_bcc_flag',
  'mail_link_tracking_enabled_flag', 'has_draft_flag', 'has_sent_flag', 'archived_flag', 'shared_flag', 'external_deleted_flag',
  'first_message_to_me_flag', 'all_messages_sent_flag', 'mail_tracking_status', 'parties', 'drafts_parties', 'folders', 'version',
  'message_count', 'last_message_timestamp', 'first_message_timestamp', 'last_message_sent_timestamp',
  'last_message_received_timestamp', 'add_time', 'update_time', 'deal_id', 'deal_status', 'lead_id',
];
// Arrays of parties are shown by their first address (`from.0.email_address`): JSON in a cell helps nobody.
const THREAD_COLUMNS = ['id', 'subject', 'parties.from.0.email_address', 'message_count', 'last_message_timestamp', 'read_flag', 'deal_id', 'lead_id'];

export const MESSAGE_FIELDS = [
  'id', 'from', 'to', 'cc', 'bcc', 'body_url', 'body', 'account_id', 'user_id', 'mail_thread_id', 'subject', 'snippet',
  'mail_tracking_status', 'mail_link_tracking_enabled_flag', 'read_flag', 'draft', 'draft_flag', 'synced_flag', 'deleted_flag',
  'has_body_flag', 'sent_flag', 'sent_from_pipedrive_flag', 'smart_bcc_flag', 'message_time', 'add_time', 'update_time',
  'has_attachments_flag', 'has_inline_attachments_flag', 'has_real_attachments_flag',
];
export const MESSAGE_COLUMNS = ['id', 'message_time', 'from.0.email_address', 'to.0.email_address', 'subject', 'snippet'];


export const mailboxOps = defineTable('mailbox', {
  // `folder` is required by the service; its default is inbox, so the CLI always sends one.
  threadsList: listRow('/api/v1/mailbox/mailThreads', 20, READ, 'offset', () => z.object({ folder: z._default(z.enum(MAIL_FOLDERS), 'inbox'), ...offsetQuery() }), {
    command: ['mailbox', 'threads', 'list'],
    summary: 'List your mail threads of one folder, most recent message first',
    examples: ['crmctl mailbox threads list --folder inbox', 'crmctl mailbox threads list --folder archive --all --output ndjson'],
    columns: THREAD_COLUMNS,
    fields: THREAD_FIELDS,
    help: { folder: 'inbox (default), drafts, sent or archive' },
  }),
  threadsGet: getRow('/api/v1/mailbox/mailThreads/{id}', 20, READ, { command: ['mailbox', 'threads', 'get'], summary: 'Show one mail thread', examples: ['crmctl mailbox threads get 1 --json'], columns: ['id', 'subject', 'folders', 'parties.from.0.email_address', 'parties.to.0.email_address', 'message_count', 'read_flag', 'shared_flag', 'archived_flag', 'deal_id', 'lead_id', 'last_message_timestamp'], fields: THREAD_FIELDS }),
  threadsMessages: getRow('/api/v1/mailbox/mailThreads/{id}/mailMessages', 20, READ, { command: ['mailbox', 'threads', 'messages'], summary: 'List the messages of a mail thread (bodies not included)', examples: ['crmctl mailbox threads messages 1'], columns: MESSAGE_COLUMNS, fields: MESSAGE_FIELDS }),
  // The vendor spec lists only application/x-www-form-urlencoded for this one.
  threadsUpdate: updateRow('PUT', '/api/v1/mailbox/mailThreads/{id}', 10, WRITE, {
    prompts: { id: { from: 'mailbox.threadsList', label: 'subject', query: { folder: 'inbox' } }, deal_id: { from: 'deals.list', label: 'title' }, lead_id: { from: 'leads.list', label: 'title' } },
    command: ['mailbox', 'threads', 'update'],
    summary: 'Link a thread to a deal or lead, mark it read or shared, archive it (only the fields you give change)',
    examples: ['crmctl mailbox threads update 1 --deal-id 1 --read 1', 'crmctl mailbox threads update 1 --archived 1', 'crmctl mailbox threads update 1 --unset deal_id'],
    columns: ['id', 'subject', 'folders', 'read_flag', 'shared_flag', 'archived_flag', 'deal_id', 'lead_id'],
    fields: THREAD_FIELDS,
    flagNames: { shared_flag: 'shared', read_flag: 'read', archived_flag: 'archived' },
    help: {
      deal_id: 'link to this deal (must exist)',
      lead_id: 'link to this lead (UUID, must exist)',
      shared_flag: '1 shares the thread with the rest of the company, 0 makes it private',
      read_flag: '1 read, 0 unread',
      archived_flag: '1 archives an inbox thread (moves it to archive), 0 brings it back to the inbox',
    },
  }, {
    encoding: 'form',
    body: () => z.object({ deal_id: z.optional(z.nullable(id())), lead_id: z.optional(z.nullable(uuid())), shared_flag: z.optional(flag01()), read_flag: z.optional(flag01()), archived_flag: z.optional(flag01()) }),
  }),
  threadsDelete: deleteRow('/api/v1/mailbox/mailThreads/{id}', 6, WRITE, { prompts: { id: { from: 'mailbox.threadsList', label: 'subject', query: { folder: 'inbox' } } }, command: ['mailbox', 'threads', 'delete'], summary: 'Delete a mail thread', examples: ['crmctl mailbox threads delete 1 --yes'], columns: ['id'] }),
  messagesGet: getRow('/api/v1/mailbox/mailMessages/{id}', 2, READ, {
    command: ['mailbox', 'messages', 'get'],
    summary: 'Show one mail message; --body includes its full body',
    examples: ['crmctl mailbox messages get 3 --body', 'crmctl mailbox messages get 3 --json'],
    columns: ['id', 'mail_thread_id', 'subject', 'from.0.email_address', 'to.0.email_address', 'message_time', 'read_flag', 'snippet'],
    fields: MESSAGE_FIELDS,
    handWritten: true,
  }, { query: () => z.object({ include_body: z.optional(flag01()) }) }),
} satisfies OperationTable);
