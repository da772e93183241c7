import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, visibleToNumber, dateTime, filterWins, flag01, id, offsetQuery, searchQuery, sortString } from '../schemas.js';
import { CHANGELOG_FIELDS, FOLLOWER_CHANGELOG_FIELDS, USER_IDS } from './record-fields.js';
import { followerRows } from './follower-rows.js';
import { createRow, cursorPage, deleteRow, getRow, listRow, offsetPage, updateRow } from './rows.js';

/** Fields of the person a create or an update answers. */
const PERSON_WRITE_FIELDS = [
  'id', 'name', 'first_name', 'last_name', 'owner_id', 'org_id', 'add_time', 'update_time', 'emails', 'phones', 'is_deleted',
  'visible_to', 'label_ids', 'picture_id', 'postal_address', 'notes', 'im', 'birthday', 'job_title', 'custom_fields',
];

// Persons: the 19 read operations of the interface (v2 and v1 forms). Pairs that do the same job
// (list, get, files, followers) share one command; `--v1` picks the other form (see commands/persons).

const READ = ['contacts:read', 'contacts:full'];
/** Changelog and flow are "recents" in the service's scope model (the vendor's documents). */
const RECENTS = ['recents:read'];
const MAIL = ['mail:read', 'mail:full'];

/** Optional fields of a person that `include_fields` can add (interface, Person). */
export const PERSON_INCLUDE_FIELDS = [
  'next_activity_id', 'last_activity_id', 'open_deals_count', 'related_open_deals_count', 'closed_deals_count',
  'related_closed_deals_count', 'participant_open_deals_count', 'participant_closed_deals_count', 'email_messages_count',
  'activities_count', 'done_activities_count', 'undone_activities_count', 'files_count', 'notes_count', 'followers_count',
  'won_deals_count', 'related_won_deals_count', 'lost_deals_count', 'related_lost_deals_count', 'last_incoming_mail_time',
  'last_outgoing_mail_time', 'marketing_status', 'doi_status', 'smart_bcc_email',
] as const;

/** Fields that appear only with contact sync (the first five) or the marketing app (the last two). */
export const SYNC_FIELDS = ['ims', 'postal_address', 'notes', 'birthday', 'job_title'];

export const PERSON_FIELDS = [
  'id', 'name', 'first_name', 'last_name', 'owner_id', 'org_id', 'add_time', 'update_time', 'emails', 'phones', 'is_deleted',
  'visible_to', 'label_ids', 'labels', 'picture_id', 'custom_fields', ...SYNC_FIELDS, ...PERSON_INCLUDE_FIELDS,
];
const V1_PERSON_FIELDS = [
  'id', 'company_id', 'owner_id', 'org_id', 'name', 'first_name', 'last_name', 'email', 'phone', 'first_char', 'active_flag',
  'add_time', 'update_time', 'delete_time', 'visible_to', 'picture_id', 'label', 'label_ids', 'cc_email', 'owner_name', 'org_name',
  'next_activity_date', 'next_activity_time', 'last_activity_date', ...SYNC_FIELDS,
  ...PERSON_INCLUDE_FIELDS.filter((f) => f !== 'doi_status' && f !== 'smart_bcc_email'),
];
/** First-level keys the v1 list sorts on (interface: "first-level keys only"); custom field hashes too. */
const V1_SORT = [
  'id', 'name', 'first_name', 'last_name', 'owner_id', 'org_id', 'first_char', 'add_time', 'update_time', 'visible_to', 'label',
  'open_deals_count', 'closed_deals_count', 'won_deals_count', 'lost_deals_count', 'activities_count', 'done_activities_count',
  'undone_activities_count', 'email_messages_count', 'notes_count', 'files_count', 'followers_count', 'next_activity_date',
  'last_activity_date', 'last_incoming_mail_time', 'last_outgoing_mail_time', 'org_name', 'owner_name',
];
const FILE_SORT_API = ['id', 'update_time'];
const FILE_SORT_V1 = ['id', 'user_id', 'deal_id', 'person_id', 'org_id', 'product_id', 'add_time', 'update_time', 'file_name', 'file_type', 'file_size', 'comment'];
const DEAL_SORT = [
  'id', 'title', 'value', 'currency', 'status', 'stage_id', 'pipeline_id', 'user_id', 'person_id', 'org_id', 'add_time',
  'update_time', 'close_time', 'won_time', 'lost_time', 'expected_close_date', 'probability', 'visible_to',
];
export const FLOW_ITEMS = [
  'call', 'activity', 'plannedActivity', 'change', 'note', 'deal', 'file', 'dealChange', 'personChange', 'organizationChange',
  'follower', 'dealFollower', 'personFollower', 'organizationFollower', 'participant', 'comment', 'mailMessage',
  'mailMessageWithAttachment', 'invoice', 'document', 'marketing_campaign_stat', 'marketing_status_change',
] as const;
export const DEAL_STATUSES = ['open', 'won', 'lost', 'deleted', 'all_not_deleted'] as const;

const COLUMNS = ['id', 'name', 'emails.0.value', 'phones.0.value', 'org_id', 'owner_id', 'update_time'];
const V1_COLUMNS = ['id', 'name', 'email.0.value', 'phone.0.value', 'org_name', 'owner_name', 'update_time'];

/** RFC 3339 date-time with a time zone, as the v2 list's time filters want it. */
const rfc3339 = once(() => z.string().check(z.refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)), {
  error: 'must be an RFC 3339 date-time with a zone, e.g. 2026-01-31T12:00:00Z',
})));
const firstChar = once(() => z.string().check(z.refine((s) => [...s].length === 1, { error: 'must be exactly one character (the first letter of the name)' })));
/** An e-mail address or phone number of a person, with its label. */
const contact = once(() => z.object({ value: z.string().check(z.trim()).check(z.minLength(1)), primary: z.optional(z.boolean()), label: z.optional(z.string()) }));

const detailQuery = once(() => ({
  include_fields: z.optional(z.array(z.enum(PERSON_INCLUDE_FIELDS))),
  custom_fields: z.optional(z.array(z.string().check(z.minLength(1))).check(z.maxLength(15))),
  include_option_labels: z.optional(z.boolean()),
  include_labels: z.optional(z.boolean()),
}));
const DETAIL_HELP = {
  include_fields: 'extra fields to add; marketing_status and doi_status only with the marketing app',
  custom_fields: 'custom field keys to include (at most 15)',
  include_option_labels: 'option custom fields as {id, label} objects instead of ids',
  include_labels: 'add the person\'s labels as {id, label} objects',
};

const listQuery = once(() => z
  .object({
    filter_id: z.optional(id()),
    ids: z.optional(z.array(id()).check(z.maxLength(100))),
    owner_id: z.optional(id()),
    org_id: z.optional(id()),
    deal_id: z.optional(id()),
    updated_since: z.optional(rfc3339()),
    updated_until: z.optional(rfc3339()),
    sort_by: z.optional(z.enum(['id', 'update_time', 'add_time'])),
    sort_direction: z.optional(z.enum(['asc', 'desc'])),
    ...detailQuery(),
    ...cursorQuery(500),
  }).check(z.superRefine(filterWins('filter_id', ['ids', 'owner_id', 'org_id', 'deal_id']))));

const v1ListQuery = once(() => z
  .object({
    user_id: z.optional(id()),
    filter_id: z.optional(id()),
    first_char: z.optional(firstChar()),
    sort: z.optional(sortString(V1_SORT, true)),
    ...offsetQuery(),
  }).check(z.superRefine(filterWins('filter_id', ['user_id']))));

/** The add and remove rows are the shared ones; a person's follower list and changelog differ (below). */
const FOLLOWING = followerRows({ area: 'persons', noun: 'person', read: READ, write: ['contacts:full'], v1Columns: ['id', 'person_id', 'user_id', 'add_time'], v1Fields: ['user_id', 'id', 'person_id', 'add_time'] });

/** A person's files, v2 and v1 form alike but for the fields they sort on (pages of at most 100). */
const filesQuery = (sort: readonly string[]) => () => z.object({ ...offsetQuery(), limit: z.optional(z.int().check(z.gte(1)).check(z.lte(100))), sort: z.optional(sortString(sort)) });

/** Body fields a create and an update share, after name, owner and organization (the create adds add_time before them). */
const personBody = () => ({
  emails: z.optional(z.array(contact())), phones: z.optional(z.array(contact())), visible_to: z.optional(visibleToNumber()), label_ids: z.optional(z.array(id())),
  postal_address: z.optional(z.object({ value: z.optional(z.string()), country: z.optional(z.string()), admin_area_level_1: z.optional(z.string()), admin_area_level_2: z.optional(z.string()), locality: z.optional(z.string()), sublocality: z.optional(z.string()), route: z.optional(z.string()), street_number: z.optional(z.string()), subpremise: z.optional(z.string()), postal_code: z.optional(z.string()) })),
  notes: z.optional(z.string()), im: z.optional(z.array(contact())), birthday: z.optional(z.string()), job_title: z.optional(z.string()),
  marketing_status: z.optional(z.enum(['no_consent', 'unsubscribed', 'subscribed', 'archived'])), custom_fields: z.optional(z.record(z.string(), z.unknown())),
});

export const personOps = defineTable('persons', {
  list: listRow('/api/v2/persons', 10, READ, 'cursor', () => listQuery(), {
    customFields: 'person', command: ['persons', 'list'],
    summary: 'List persons (cursor-paged); --v1 for the offset-paged v1 list',
    examples: [
      'crmctl persons list --owner-id 1 --sort-by update_time --sort-direction desc --limit 50',
      'crmctl persons list --ids 1,2,3 --include-fields open_deals_count,notes_count --json',
      'crmctl persons list --updated-since 2026-01-01T00:00:00Z --all --output ndjson',
    ],
    columns: COLUMNS,
    fields: PERSON_FIELDS,
    help: {
      filter_id: 'saved filter id; --ids, --owner-id, --org-id and --deal-id cannot be combined with it (the service ignores them)',
      ids: 'up to 100 person ids; ids that do not exist or are not visible are left out',
      owner_id: 'persons owned by this user',
      org_id: 'persons of this organization',
      deal_id: 'persons linked to this deal',
      updated_since: 'RFC 3339, inclusive',
      updated_until: 'RFC 3339, exclusive',
      sort_by: 'default id',
      sort_direction: 'default asc',
      ...DETAIL_HELP,
    },
  }),
  get: getRow('/api/v2/persons/{id}', 1, READ, {
    customFields: 'person', command: ['persons', 'get'],
    summary: 'Show one person; --v1 for the v1 form with every count and related objects',
    examples: ['crmctl persons get 12 --include-fields open_deals_count,followers_count --include-labels', 'crmctl persons get 12 --v1 --json'],
    columns: PERSON_FIELDS.filter((f) => !(PERSON_INCLUDE_FIELDS as readonly string[]).includes(f)),
    fields: PERSON_FIELDS,
    help: DETAIL_HELP,
  }, { query: () => z.object(detailQuery()) }),
  changelog: listRow('/api/v1/persons/{id}/changelog', 20, RECENTS, 'cursor', cursorPage, {
    command: ['persons', 'changelog'],
    summary: 'Field changes of a person, newest first',
    examples: ['crmctl persons changelog 12 --limit 20'],
    columns: ['time', 'field_key', 'old_value', 'new_value', 'actor_user_id', 'change_source'],
    fields: CHANGELOG_FIELDS,
  }),
  files: listRow('/api/v1/persons/{id}/files', 20, READ, 'offset', filesQuery(FILE_SORT_API), {
    command: ['persons', 'files'],
    summary: 'Files attached to a person (pages of at most 100); --v1 sorts on more fields',
    examples: ['crmctl persons files 12 --sort "update_time DESC"', 'crmctl persons files 12 --v1 --sort "file_size DESC"'],
    columns: ['id', 'name', 'file_type', 'file_size', 'deal_id', 'add_time'],
    help: { sort: '"field ASC|DESC"; fields: id, update_time (with --v1: id, user_id, deal_id, person_id, org_id, product_id, add_time, update_time, file_name, file_type, file_size, comment)' },
  }, { maxLimit: 100 }),
  // Cost "not stated" in the interface; the vendor charges 20 for the person files operation.
  // The Limits table caps person files at 100 a page; it names no form, so both get it.
  filesV1: listRow('/v1/persons/{id}/files', 20, READ, 'offset', filesQuery(FILE_SORT_V1), {
    command: ['persons', 'files'],
    summary: 'Files attached to a person, v1 form (reached with `crmctl persons files ID --v1`)',
    examples: ['crmctl persons files 12 --v1 --sort "file_size DESC"'],
    columns: ['id', 'name', 'file_type', 'file_size', 'deal_id', 'add_time'],
    switch: '--v1',
  }, { maxLimit: 100 }),
  flow: listRow('/api/v1/persons/{id}/flow', 40, RECENTS, 'offset', () => z.object({ ...offsetQuery(), all_changes: z.optional(flag01()), items: z.optional(z.array(z.enum(FLOW_ITEMS))) }), {
    command: ['persons', 'flow'],
    summary: 'Updates about a person (notes, activities, changes, deals, files, mail), newest first',
    examples: ['crmctl persons flow 12 --items note,activity,personChange --all-changes 1'],
    columns: ['timestamp', 'object', 'data.id'],
    help: { all_changes: '1 includes custom field changes', items: `only these kinds: ${FLOW_ITEMS.join(', ')}` },
  }),
  followers: listRow('/api/v2/persons/{id}/followers', 10, READ, 'cursor', cursorPage, {
    command: ['persons', 'followers', 'list'],
    summary: 'Users following a person; --v1 for the v1 form',
    examples: ['crmctl persons followers list 12', 'crmctl persons followers list 12 --v1 --json'],
    columns: ['user_id', 'add_time'],
    fields: ['user_id', 'add_time', 'id', 'person_id'],
  }),
  followersChangelog: listRow('/api/v2/persons/{id}/followers/changelog', 10, READ, 'cursor', cursorPage, {
    command: ['persons', 'followers', 'changelog'],
    summary: 'Who started or stopped following a person, and when',
    examples: ['crmctl persons followers changelog 12'],
    columns: ['time', 'action', 'follower_user_id', 'actor_user_id'],
    fields: FOLLOWER_CHANGELOG_FIELDS,
  }),
  mailMessages: listRow('/api/v1/persons/{id}/mailMessages', 20, MAIL, 'offset', () => z.object({ ...offsetQuery(), include_body: z.optional(flag01()) }), {
    command: ['persons', 'mail-messages'],
    summary: 'Mail messages with a person, newest first',
    examples: ['crmctl persons mail-messages 12 --include-body 1 --json'],
    columns: ['data.id', 'timestamp', 'data.subject', 'data.from.0.email_address', 'data.mail_thread_id'],
    help: { include_body: '1 adds each message body (default 0)' },
  }),
  permittedUsers: getRow('/api/v1/persons/{id}/permittedUsers', 10, READ, { command: ['persons', 'permitted-users'], summary: 'Ids of the users who may see a person', examples: ['crmctl persons permitted-users 12'], ...USER_IDS }),
  picture: getRow('/api/v2/persons/{id}/picture', 1, READ, {
    command: ['persons', 'picture', 'get'],
    summary: 'URLs of a person\'s picture (128x128 and 512x512)',
    examples: ['crmctl persons picture get 12 --fields pictures.128,pictures.512'],
    columns: ['id', 'item_id', 'pictures.128', 'pictures.512', 'file_size', 'added_by_user_id'],
    fields: ['id', 'item_type', 'item_id', 'added_by_user_id', 'active_flag', 'file_size', 'pictures'],
  }),
  products: listRow('/api/v1/persons/{id}/products', 20, READ, 'offset', offsetPage, {
    command: ['persons', 'products'],
    summary: 'Products on the deals of a person (one row per deal product)',
    examples: ['crmctl persons products 12 --all'],
    columns: ['deal_id', 'deal.title', 'deal.status', 'product.id', 'product.name', 'product.code'],
    fields: ['deal_id', 'deal', 'product'],
  }),
  // Cost "not shown" in the interface; the vendor charges 20.
  search: listRow('/api/v2/persons/search', 20, [...READ, 'search:read'], 'cursor', () => searchQuery({
    term: z.string(),
    fields: z.optional(z.array(z.enum(['custom_fields', 'email', 'notes', 'phone', 'name']))),
    exact_match: z.optional(z.boolean()),
    organization_id: z.optional(id()),
    include_fields: z.optional(z.array(z.enum(['person.picture']))),
    ...cursorQuery(500),
  }), {
    command: ['persons', 'search'],
    summary: 'Search persons by name, email, phone, notes or custom fields',
    examples: ['crmctl persons search --term alice --search-fields name,email', 'crmctl persons search --term "+372 5550" --search-fields phone --exact-match'],
    unwrap: 'items',
    columns: ['item.id', 'item.name', 'item.emails.0', 'item.phones.0', 'item.organization.name', 'result_score'],
    help: {
      term: 'at least 2 characters (1 with --exact-match)',
      fields: 'where to search (default all); custom fields of types address, varchar, text, varchar_auto, double, monetary, phone',
      exact_match: 'only full matches (case-insensitive)',
      organization_id: 'at most 2000 persons are found per organization',
    },
  }, { beta: true }),
  listV1: listRow('/v1/persons', null, READ, 'offset', () => v1ListQuery(), {
    command: ['persons', 'list'],
    summary: 'List persons, v1 form (reached with `crmctl persons list --v1`)',
    examples: ['crmctl persons list --v1 --first-char a --sort "name ASC"', 'crmctl persons list --v1 --user-id 2 --all'],
    columns: V1_COLUMNS,
    fields: V1_PERSON_FIELDS,
    help: {
      user_id: 'owner; cannot be combined with --filter-id (the filter wins)',
      first_char: 'first letter of the name (case-insensitive)',
      sort: '"field ASC|DESC", comma separated; first-level keys only',
    },
    switch: '--v1',
  }),
  collection: listRow('/v1/persons/collection', null, READ, 'cursor', () => z.object({ since: z.optional(dateTime()), until: z.optional(dateTime()), owner_id: z.optional(id()), first_char: z.optional(firstChar()), ...cursorQuery(500) }), {
    command: ['persons', 'collection'],
    summary: 'Every person in one cursor-paged stream, for exports (global admins only)',
    examples: ['crmctl persons collection --since "2026-01-01 00:00:00" --all --output ndjson > persons.ndjson'],
    columns: ['id', 'name', 'email.0.value', 'owner_id', 'org_id', 'update_time'],
    fields: ['id', 'active_flag', 'owner_id', 'org_id', 'name', 'email', 'phone', 'update_time', 'delete_time', 'add_time', 'visible_to', 'picture_id', 'label', 'label_ids', 'cc_email'],
    help: { since: 'update_time from (date-time)', until: 'update_time up to (date-time)', first_char: 'first letter of the name (case-insensitive)' },
  }, { beta: true }),
  getV1: getRow('/v1/persons/{id}', null, READ, {
    command: ['persons', 'get'],
    summary: 'Show one person, v1 form (reached with `crmctl persons get ID --v1`)',
    examples: ['crmctl persons get 12 --v1'],
    columns: V1_COLUMNS,
    fields: V1_PERSON_FIELDS,
    switch: '--v1',
  }),
  activities: listRow('/v1/persons/{id}/activities', null, READ, 'offset', () => z.object({ ...offsetQuery(), done: z.optional(flag01()), exclude: z.optional(z.array(id())) }), {
    command: ['persons', 'activities'],
    summary: 'Activities of a person',
    examples: ['crmctl persons activities 12 --done 0', 'crmctl persons activities 12 --exclude 4,9'],
    columns: ['id', 'type', 'subject', 'due_date', 'done', 'user_id', 'deal_id'],
    help: { done: '1 done only, 0 not done only (default both)', exclude: 'activity ids to leave out' },
  }),
  deals: listRow('/v1/persons/{id}/deals', null, READ, 'offset', () => z.object({ ...offsetQuery(), status: z.optional(z.enum(DEAL_STATUSES)), sort: z.optional(sortString(DEAL_SORT, true)) }), {
    command: ['persons', 'deals'],
    summary: 'Deals of a person',
    examples: ['crmctl persons deals 12 --status open --sort "value DESC"', 'crmctl persons deals 12 --status deleted'],
    columns: ['id', 'title', 'status', 'value', 'currency', 'stage_id', 'user_id'],
    help: { status: 'default all_not_deleted; deleted lists deals deleted in the last 30 days', sort: '"field ASC|DESC", comma separated' },
  }),
  // Cost "not stated" in the interface; the vendor charges 20.
  followersV1: getRow('/v1/persons/{id}/followers', 20, READ, {
    command: ['persons', 'followers', 'list'],
    summary: 'Users following a person, v1 form (reached with `crmctl persons followers list ID --v1`)',
    examples: ['crmctl persons followers list 12 --v1'],
    columns: ['id', 'user_id', 'add_time'],
    switch: '--v1',
  }),
  create: createRow('/api/v2/persons', 5, ['contacts:full'], () => z.object({ name: z.string().check(z.trim()).check(z.minLength(1)), owner_id: z.optional(id()), org_id: z.optional(z.nullable(id())), add_time: z.optional(dateTime()), ...personBody() }), {
    customFields: 'person', command: ['persons', 'create'],
    summary: 'Create a person',
    examples: ['crmctl persons create --name "Alice Andersson" --org-id 1'],
    columns: ['id', 'name', 'org_id', 'owner_id', 'add_time', 'update_time'],
    fields: PERSON_WRITE_FIELDS,
  }),
  update: updateRow('PATCH', '/api/v2/persons/{id}', 5, ['contacts:full'], {
    customFields: 'person', command: ['persons', 'update'],
    summary: 'Change a person: only the fields you give change',
    examples: ['crmctl persons update 1 --name "Alice A. Andersson"'],
    columns: ['id', 'name', 'org_id', 'owner_id', 'add_time', 'update_time'],
    fields: PERSON_WRITE_FIELDS,
  }, { body: () => z.object({ name: z.optional(z.string().check(z.trim()).check(z.minLength(1))), owner_id: z.optional(id()), org_id: z.optional(z.nullable(id())), ...personBody() }) }),
  delete: deleteRow('/api/v2/persons/{id}', 3, ['contacts:full'], {
    command: ['persons', 'delete'],
    summary: 'Delete a person',
    examples: ['crmctl persons delete 1'],
  }),
  addFollower: FOLLOWING.addFollower,
  addFollowerV1: FOLLOWING.addFollowerV1,
  removeFollower: FOLLOWING.removeFollower,
  removeFollowerV1: FOLLOWING.removeFollowerV1,
  merge: updateRow('PUT', '/api/v1/persons/{id}/merge', 40, ['contacts:full'], {
    command: ['persons', 'merge'],
    summary: 'Merge a person into another (deals, activities, notes... move)',
    examples: ['crmctl persons merge 2 --merge-with-id 1 --yes'],
    columns: ['id', 'name', 'label', 'org_id', 'owner_id', 'email', 'add_time'],
    fields: ['id', 'company_id', 'active_flag', 'phone', 'email', 'first_char', 'add_time', 'update_time', 'visible_to', 'picture_id', 'label', 'label_ids', 'org_name', 'owner_name', 'cc_email', 'owner_id', 'org_id', 'merge_what_id', 'name', 'first_name', 'last_name', 'email_messages_count', 'activities_count', 'done_activities_count', 'undone_activities_count', 'files_count', 'notes_count', 'followers_count', 'last_incoming_mail_time', 'last_outgoing_mail_time', 'open_deals_count', 'related_open_deals_count', 'closed_deals_count', 'related_closed_deals_count', 'won_deals_count', 'related_won_deals_count', 'lost_deals_count', 'related_lost_deals_count', 'next_activity_date', 'next_activity_time', 'next_activity_id', 'last_activity_id', 'last_activity_date', 'participant_open_deals_count', 'participant_closed_deals_count'],
    confirm: true,
  }, { body: () => z.object({ merge_with_id: id() }) }),
  addPicture: createRow('/api/v1/persons/{id}/picture', 10, ['contacts:full'], () => z.object({ crop_x: z.optional(z.int()), crop_y: z.optional(z.int()), crop_width: z.optional(z.int()), crop_height: z.optional(z.int()) }), {
    command: ['persons', 'picture', 'upload'],
    summary: 'Upload a picture for a person from a file',
    examples: ['crmctl persons picture upload 1 --file ./alice.png'],
    columns: ['PICTURE_ID'],
    fields: ['PICTURE_ID'],
    upload: { field: 'file' },
  }, { encoding: 'multipart' }),
  deletePicture: deleteRow('/api/v1/persons/{id}/picture', 6, ['contacts:full'], {
    command: ['persons', 'picture', 'delete'],
    summary: 'Delete the picture of a person',
    examples: ['crmctl persons picture delete 1'],
  }),
} satisfies OperationTable);
