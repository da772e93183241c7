import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { currency, cursorQuery, dateTime, filterWins, id, isoDate, offsetQuery, searchQuery, sortString, uuid, visibleTo } from '../schemas.js';
import { createRow, deleteRow, getRow, listRow, updateRow } from './rows.js';

const READ = ['leads:read', 'leads:full'];
const WRITE = ['leads:full'];

export const LEAD_FIELDS = [
  'id', 'title', 'owner_id', 'creator_id', 'label_ids', 'person_id', 'organization_id', 'source_name', 'origin', 'origin_id',
  'channel', 'channel_id', 'source_deal_id', 'is_archived', 'archive_reason', 'was_seen', 'value', 'expected_close_date',
  'next_activity_id', 'add_time', 'update_time', 'visible_to', 'cc_email',
];
const COLUMNS = ['id', 'title', 'value', 'person_id', 'organization_id', 'label_ids', 'owner_id', 'add_time'];
const LIST_SORT = ['id', 'title', 'owner_id', 'creator_id', 'label_ids', 'value', 'source_name', 'was_seen', 'expected_close_date', 'next_activity_id', 'add_time', 'update_time', 'visible_to'];
const ARCHIVED_SORT = ['id', 'title', 'owner_id', 'creator_id', 'was_seen', 'expected_close_date', 'next_activity_id', 'add_time', 'update_time'];

const money = once(() => z.object({ amount: z.number(), currency: currency() }));
/** Leads are named by UUID, not by the integer ids the row builders assume: each row with {id} says so. */
const params = once(() => z.object({ id: uuid() }));

const leadFields = once(() => ({
  owner_id: z.optional(id()),
  label_ids: z.optional(z.array(uuid())),
  expected_close_date: z.optional(isoDate()),
  visible_to: z.optional(visibleTo()),
  was_seen: z.optional(z.boolean()),
  origin_id: z.optional(z.string()),
  channel: z.optional(z.int()),
  channel_id: z.optional(z.string()),
}));

const createBody = once(() => z
  .object({
    title: z.string().check(z.trim()).check(z.minLength(1)),
    person_id: z.optional(id()),
    organization_id: z.optional(id()),
    value: z.optional(money()),
    ...leadFields(),
  }).check(z.superRefine((b, ctx) => {
    if (b.person_id === undefined && b.organization_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['person_id'], message: 'a lead needs a person or an organization: give --person-id or --organization-id (or both)' });
    }
  })));

const updateBody = once(() => z
  .object({
    title: z.optional(z.string().check(z.trim()).check(z.minLength(1))),
    person_id: z.optional(z.nullable(id())),
    organization_id: z.optional(z.nullable(id())),
    value: z.optional(z.nullable(money())),
    ...leadFields(),
    expected_close_date: z.optional(z.nullable(isoDate())),
    is_archived: z.optional(z.boolean()),
    archive_reason: z.optional(z.string().check(z.minLength(1))),
  }).check(z.superRefine((b, ctx) => {
    if (b.person_id === null && b.organization_id === null) {
      ctx.addIssue({ code: 'custom', path: ['person_id'], message: 'cannot clear both person and organization: a lead must stay linked to one' });
    }
    if (b.archive_reason !== undefined && b.is_archived === false) {
      ctx.addIssue({ code: 'custom', path: ['archive_reason'], message: 'cannot be sent while unarchiving (is_archived=false clears it)' });
    }
  })));

const listQuery = once(() => ({
  owner_id: z.optional(id()),
  person_id: z.optional(id()),
  organization_id: z.optional(id()),
  filter_id: z.optional(id()),
  ...offsetQuery(),
}));
const FILTER_HELP = 'saved filter id; --owner-id, --person-id and --organization-id cannot be combined with it (the service ignores them)';
/** The service ignores owner, person and organization when a saved filter is given (interface: filter_id wins over the three). */
const filterWinsOverLinks = () => z.superRefine(filterWins('filter_id', ['owner_id', 'person_id', 'organization_id']));

/** The search query of the v2 (cursor) and v1 (offset) forms: the same terms, another page. */
const searchOf = <P extends z.core.$ZodShape>(page: P) => searchQuery({
  term: z.string(),
  fields: z.optional(z.array(z.enum(['custom_fields', 'notes', 'title']))),
  exact_match: z.optional(z.boolean()),
  person_id: z.optional(id()),
  organization_id: z.optional(id()),
  include_fields: z.optional(z.array(z.enum(['lead.was_seen']))),
  ...page,
});

export const leadOps = defineTable('leads', {
  list: listRow('/api/v1/leads', 20, READ, 'offset', () => z.object({ ...listQuery(), updated_since: z.optional(dateTime()), sort: z.optional(sortString(LIST_SORT, true)) }).check(filterWinsOverLinks()), {
    customFields: 'lead', command: ['leads', 'list'],
    summary: 'List leads that are not archived, oldest first',
    examples: ['crmctl leads list --owner-id 1 --sort "add_time DESC" --limit 20', 'crmctl leads list --all --output ndjson > leads.ndjson'],
    columns: COLUMNS,
    fields: LEAD_FIELDS,
    help: { filter_id: FILTER_HELP, updated_since: 'ISO 8601, inclusive', sort: '"field ASC|DESC", comma separated' },
  }),
  get: getRow('/api/v1/leads/{id}', 2, READ, { customFields: 'lead', command: ['leads', 'get'], summary: 'Show one lead', examples: ['crmctl leads get 9b2e4c1a-6f0e-4d2b-9a51-1c2d3e4f5a6b --json'], columns: LEAD_FIELDS, fields: LEAD_FIELDS }, { params: params() }),
  create: createRow('/api/v1/leads', 10, WRITE, () => createBody(), {
    prompts: { person_id: { from: 'persons.list', or: ['organization_id'] }, organization_id: { from: 'organizations.list', or: ['person_id'] }, owner_id: { from: 'users.list' }, label_ids: { from: 'leadLabels.list' } },
    customFields: 'lead', command: ['leads', 'create'],
    summary: 'Create a lead (linked to a person or an organization)',
    examples: ['crmctl leads create --title "Acme expansion" --organization-id 3 --value-amount 5000 --value-currency EUR --label-ids <label-uuid>'],
    columns: COLUMNS,
    fields: LEAD_FIELDS,
    help: { 'value.amount': 'lead value; needs --value-currency', 'value.currency': '3-letter code; needs --value-amount', visible_to: '1 owner (and followers), 3 group/company, 5 group and sub-groups, 7 company', channel: 'a marketing channel configured for the company' },
  }, { successStatus: 201 }),
  update: updateRow('PATCH', '/api/v1/leads/{id}', 10, WRITE, {
    prompts: { id: { from: 'leads.list', label: 'title' }, person_id: { from: 'persons.list' }, organization_id: { from: 'organizations.list' }, owner_id: { from: 'users.list' }, label_ids: { from: 'leadLabels.list' } },
    customFields: 'lead', command: ['leads', 'update'],
    summary: 'Change a lead: only the fields you give change; --unset clears value, person, organization',
    examples: ['crmctl leads update <lead-id> --title "Acme (renewal)" --unset value'],
    columns: COLUMNS,
    fields: LEAD_FIELDS,
  }, { params: params(), body: () => updateBody() }),
  delete: deleteRow('/api/v1/leads/{id}', 6, WRITE, { prompts: { id: { from: 'leads.list', label: 'title' } }, command: ['leads', 'delete'], summary: 'Delete a lead', examples: ['crmctl leads delete <lead-id> --yes'], columns: ['id'] }, { params: params() }),
  archived: listRow('/api/v1/leads/archived', 40, READ, 'offset', () => z.object({ ...listQuery(), sort: z.optional(sortString(ARCHIVED_SORT)) }).check(filterWinsOverLinks()), {
    customFields: 'lead', command: ['leads', 'archived'], summary: 'List archived leads', examples: ['crmctl leads archived --limit 50'], columns: [...COLUMNS.slice(0, 3), 'archive_reason', 'update_time'], fields: LEAD_FIELDS, help: { filter_id: FILTER_HELP },
  }),
  // The interface gives 100 in one statement and 500 in another; 100 is safe against both.
  search: listRow('/api/v2/leads/search', 20, [...READ, 'search:read'], 'cursor', () => searchOf(cursorQuery(100)), {
    command: ['leads', 'search'],
    summary: 'Search leads by title, notes or custom fields',
    examples: ['crmctl leads search --term acme --fields title,notes', 'crmctl leads search --term X --exact-match'],
    unwrap: 'items',
    columns: ['item.id', 'item.title', 'item.value', 'item.person.name', 'item.organization.name', 'result_score'],
    help: { term: 'at least 2 characters (1 with --exact-match)', person_id: 'at most 2000 leads are found per person', organization_id: 'at most 2000 leads are found per organization' },
  }, { maxLimit: 100 }),
  permittedUsers: getRow('/api/v1/leads/{id}/permittedUsers', 10, READ, { command: ['leads', 'permitted-users'], summary: 'List the users who may see a lead', examples: ['crmctl leads permitted-users <lead-id>'] }, { params: params() }),
  convert: createRow('/api/v2/leads/{id}/convert/deal', 40, WRITE, () => z.object({ stage_id: z.optional(id()), pipeline_id: z.optional(id()) }), {
    prompts: { id: { from: 'leads.list', label: 'title' }, stage_id: { from: 'stages.list' }, pipeline_id: { from: 'pipelines.list' } },
    command: ['leads', 'convert'],
    summary: 'Convert a lead to a deal (notes, files, emails and activities move to the deal)',
    examples: ['crmctl leads convert <lead-id> --stage-id 2 --wait'],
    help: { stage_id: 'target stage; its pipeline follows (default: first stage of the default pipeline)', pipeline_id: 'first stage of this pipeline; ignored with --stage-id' },
    handWritten: true,
  }, { params: params(), effect: 'destructive' }),
  conversionStatus: getRow('/api/v2/leads/{id}/convert/status/{conversion_id}', 1, READ, {
    command: ['leads', 'conversion-status'], summary: 'Show a lead conversion job (deal id once completed)', examples: ['crmctl leads conversion-status <lead-id> <conversion-id>'], columns: ['conversion_id', 'status', 'deal_id', 'lead_id'],
  }, { params: () => z.object({ id: uuid(), conversion_id: uuid() }) }),
  searchV1: listRow('/api/v1/leads/search', 40, ['leads:read', 'leads:full', 'search:read'], 'offset', () => searchOf(offsetQuery()), {
    command: ['leads', 'search'],
    summary: 'Search leads (v1 form)',
    examples: ['crmctl leads search --term acme'],
    unwrap: 'items',
    columns: ['item.id', 'item.name', 'item.type', 'result_score'],
    switch: '--v1',
  }),
} satisfies OperationTable);
