import * as z from 'zod/mini';
import type { OperationRow } from '../operation.js';
import { cursorQuery, offsetQuery, pathId } from '../schemas.js';
import { CHANGELOG_FIELDS, FLOW_FIELDS, ITEM_FILE_FIELDS } from './record-fields.js';

/** What differs between deals and organizations in their v1 history reads. */
export interface HistoryOf {
  /** Path segment and command word, e.g. 'deals'. */
  area: string;
  /** 'deal', 'organization' for help texts. */
  noun: string;
  /** Scopes of the item's own reads (files, permitted users). */
  read: readonly string[];
  flowSummary?: string;
}

const params = () => z.object({ id: pathId() });

/** The v1 reads of what happened around an item: field changelog, flow, mail messages, files, permitted users. */
export function itemHistoryRows(t: HistoryOf) {
  const a = /^[aeiou]/.test(t.noun) ? 'an' : 'a';
  const base = `/api/v1/${t.area}/{id}`;
  return {
    changelog: {
      method: 'GET', path: `${base}/changelog`, cost: 20, scopes: ['recents:read'], pagination: 'cursor', maxLimit: 500, params, query: () => z.object({ ...cursorQuery(500) }),
      cli: {
        command: [t.area, 'changelog'], summary: `Changes of ${a} ${t.noun}'s fields, newest first`, examples: [`crmctl ${t.area} changelog 1`],
        columns: ['field_key', 'old_value', 'new_value', 'actor_user_id', 'time', 'change_source', 'change_source_user_agent'], fields: CHANGELOG_FIELDS,
      },
    },
    flow: {
      method: 'GET', path: `${base}/flow`, cost: 40, scopes: ['recents:read'], pagination: 'offset', maxLimit: 500, params,
      query: () => z.object({ all_changes: z.optional(z.string()), items: z.optional(z.array(z.string().check(z.minLength(1)))), ...offsetQuery() }),
      cli: { command: [t.area, 'flow'], summary: t.flowSummary ?? `Everything that happened on ${a} ${t.noun}`, examples: [`crmctl ${t.area} flow 1`], columns: FLOW_FIELDS, fields: FLOW_FIELDS },
    },
    permittedUsers: {
      method: 'GET', path: `${base}/permittedUsers`, cost: 10, scopes: t.read, pagination: 'none', params,
      cli: { command: [t.area, 'permitted-users'], summary: `List the users who may see ${a} ${t.noun}`, examples: [`crmctl ${t.area} permitted-users 1`] },
    },
    mailMessages: {
      method: 'GET', path: `${base}/mailMessages`, cost: 20, scopes: ['mail:read', 'mail:full'], pagination: 'offset', maxLimit: 500, params,
      query: () => z.object({ include_body: z.optional(z.union([z.literal(0), z.literal(1)])), ...offsetQuery() }),
      cli: { command: [t.area, 'mail-messages'], summary: `List the mail messages linked to ${a} ${t.noun}`, examples: [`crmctl ${t.area} mail-messages 1`], columns: FLOW_FIELDS, fields: FLOW_FIELDS },
    },
    files: {
      method: 'GET', path: `${base}/files`, cost: 20, scopes: t.read, pagination: 'offset', maxLimit: 100, params, query: () => z.object({ sort: z.optional(z.string()), ...offsetQuery() }),
      cli: {
        command: [t.area, 'files'], summary: `List the files attached to ${a} ${t.noun}`, examples: [`crmctl ${t.area} files 1`],
        columns: ['id', 'name', 'deal_id', 'person_id', 'org_id', 'user_id', 'add_time'], fields: ITEM_FILE_FIELDS,
      },
    },
  } satisfies Record<string, OperationRow>;
}
