import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { currency, cursorQuery, dateTime, flag01, id, isoDate, pathId, searchQuery, uuid, visibleToNumber } from '../schemas.js';
import { V1_DEAL_FIELDS } from './record-fields.js';
import { followerRows } from './follower-rows.js';
import { itemHistoryRows } from './item-history-rows.js';
import { actionRow, createRow, cursorPage, deleteRow, getRow, listRow, offsetPage, updateRow } from './rows.js';

/** Fields of a deal record (v2). */
const DEAL_FIELDS = [
  'id', 'title', 'owner_id', 'person_id', 'org_id', 'pipeline_id', 'stage_id', 'value', 'currency', 'add_time', 'update_time',
  'stage_change_time', 'is_deleted', 'is_archived', 'status', 'probability', 'lost_reason', 'visible_to', 'close_time',
  'won_time', 'lost_time', 'expected_close_date', 'label_ids', 'origin', 'origin_id', 'channel', 'channel_id', 'source_lead_id',
  'arr', 'mrr', 'acv', 'custom_fields',
];
/** Fields of a product attached to a deal. */
const DEAL_PRODUCT_FIELDS = [
  'id', 'sum', 'tax', 'deal_id', 'name', 'product_id', 'product_variation_id', 'order_nr', 'add_time', 'update_time', 'comments',
  'currency', 'discount', 'discount_type', 'quantity', 'item_price', 'tax_method', 'is_enabled', 'billing_frequency',
  'billing_frequency_cycles', 'billing_start_date',
];
/** Fields of a deal discount. */
const DISCOUNT_FIELDS = ['id', 'type', 'amount', 'description', 'deal_id', 'created_at', 'created_by', 'updated_at', 'updated_by'];
/** Fields of a deal participant. */
const PARTICIPANT_FIELDS = [
  'id', 'person_id', 'add_time', 'active_flag', 'related_item_data', 'person', 'added_by_user_id', 'related_item_type',
  'related_item_id',
];
/** Fields of the deals summary (totals per currency and converted). */
const SUMMARY_FIELDS = [
  'values_total', 'weighted_values_total', 'total_count', 'total_currency_converted_value', 'total_weighted_currency_converted_value',
  'total_currency_converted_value_formatted', 'total_weighted_currency_converted_value_formatted',
];
/** Fields of one period of the deals timeline. */
const TIMELINE_FIELDS = ['period_start', 'period_end', 'deals', 'totals'];

export const DEAL_STATUSES = ['open', 'won', 'lost'] as const;
const READ = ['deals:read', 'deals:full'];
/** Extra members a deal read returns only when asked (include_fields). */
const DEAL_INCLUDE = [
  'next_activity_id', 'last_activity_id', 'first_won_time', 'products_count', 'files_count', 'notes_count', 'followers_count',
  'email_messages_count', 'activities_count', 'done_activities_count', 'undone_activities_count', 'participants_count',
  'last_incoming_mail_time', 'last_outgoing_mail_time', 'smart_bcc_email', 'source_lead_id',
] as const;

/** Fields a create and an update share (the vendor's request schema; the rules its descriptions state). */
const dealFields = once(() => ({
  owner_id: z.optional(id()),
  person_id: z.optional(z.nullable(id())),
  org_id: z.optional(z.nullable(id())),
  pipeline_id: z.optional(id()),
  stage_id: z.optional(id()),
  value: z.optional(z.number().check(z.gte(0))),
  currency: z.optional(currency()),
  is_archived: z.optional(z.boolean()),
  archive_time: z.optional(dateTime()),
  status: z.optional(z.enum(DEAL_STATUSES)),
  probability: z.optional(z.nullable(z.number().check(z.gte(0)).check(z.lte(100)))),
  lost_reason: z.optional(z.nullable(z.string())),
  visible_to: z.optional(visibleToNumber()),
  close_time: z.optional(z.nullable(dateTime())),
  won_time: z.optional(dateTime()),
  lost_time: z.optional(dateTime()),
  expected_close_date: z.optional(z.nullable(isoDate())),
  label_ids: z.optional(z.array(id()).check(z.maxLength(100))),
  custom_fields: z.optional(z.record(z.string(), z.unknown())),
}));

type DealBody = { status?: string; lost_reason?: string | null; won_time?: string; lost_time?: string; close_time?: string | null };

/** lost_reason, won_time, lost_time and close_time only go with the status they belong to. */
function statusRules(b: DealBody, ctx: z.core.$RefinementCtx): void {
  if (b.status === undefined) return;
  if (b.lost_reason != null && b.status !== 'lost') ctx.addIssue({ code: 'custom', path: ['lost_reason'], message: 'is only for --status lost' });
  if (b.won_time !== undefined && b.status !== 'won') ctx.addIssue({ code: 'custom', path: ['won_time'], message: 'is only for --status won' });
  if (b.lost_time !== undefined && b.status !== 'lost') ctx.addIssue({ code: 'custom', path: ['lost_time'], message: 'is only for --status lost' });
  if (b.close_time != null && b.status === 'open') ctx.addIssue({ code: 'custom', path: ['close_time'], message: 'is only for a won or lost deal' });
}

const DEAL_HELP = {
  title: 'deal title',
  stage_id: 'the pipeline follows the stage; default: first stage of the default pipeline',
  pipeline_id: 'the deal goes to its first stage unless a stage is given',
  value: 'deal value (needs --currency unless the company default applies)',
  currency: '3-letter currency code',
  status: 'open, won or lost; won and lost set the close time',
  lost_reason: 'why the deal was lost (with --status lost)',
  probability: 'success probability in percent; empty uses the stage probability',
  visible_to: '1 owner (and followers), 3 group/company, 5 group and sub-groups, 7 company',
  custom_fields: 'custom field values as JSON {"<field key>": value}',
};

/** Choices from the account at a terminal: a stage is offered from the pipeline picked before it. */
const DEAL_PROMPTS = {
  pipeline_id: { from: 'pipelines.list' },
  stage_id: { from: 'stages.list', query: { pipeline_id: '$?pipeline_id' }, label: '{name} ({deal_probability}%)' },
  person_id: { from: 'persons.list' },
  org_id: { from: 'organizations.list' },
  owner_id: { from: 'users.list' },
};

/** Columns and known fields of one deal as a read or a write answers it. */
const SHOWN = { columns: ['id', 'title', 'status', 'value', 'currency', 'pipeline_id', 'stage_id'], fields: DEAL_FIELDS };
/** Columns and known fields of one product attached to a deal. */
const PRODUCT_LINE = { columns: ['id', 'name', 'currency', 'deal_id', 'add_time', 'update_time'], fields: DEAL_PRODUCT_FIELDS };
/** Columns and known fields of one discount. */
const DISCOUNT = { columns: ['id', 'type', 'deal_id'], fields: DISCOUNT_FIELDS };
/** Columns and known fields of one participant. */
const PARTICIPANT = { columns: ['id', 'person_id', 'add_time'], fields: PARTICIPANT_FIELDS };
/** A deal and one of its discounts (the discount is named by UUID). */
const discountParams = () => z.object({ id: pathId(), discount_id: uuid() });

/** Filters the list of deals and the list of archived deals share. */
const dealFilters = () => ({
  filter_id: z.optional(id()), ids: z.optional(z.array(id()).check(z.maxLength(100))), owner_id: z.optional(id()), person_id: z.optional(id()), org_id: z.optional(id()), pipeline_id: z.optional(id()),
  stage_id: z.optional(id()), status: z.optional(z.enum(['open', 'won', 'lost', 'deleted'])), updated_since: z.optional(dateTime()), updated_until: z.optional(dateTime()),
  sort_by: z.optional(z.enum(['id', 'update_time', 'add_time'])), sort_direction: z.optional(z.enum(['asc', 'desc'])), include_fields: z.optional(z.array(z.enum(DEAL_INCLUDE))),
  custom_fields: z.optional(z.array(z.string().check(z.minLength(1))).check(z.maxLength(15))),
});

/** Body fields of a product line after product, price and quantity (required when attaching, optional on update). */
const lineFields = () => ({
  tax: z.optional(z.number()), comments: z.optional(z.string()), discount: z.optional(z.number()), is_enabled: z.optional(z.boolean()),
  tax_method: z.optional(z.enum(['exclusive', 'inclusive', 'none'])), discount_type: z.optional(z.enum(['percentage', 'amount'])),
  product_variation_id: z.optional(z.nullable(id())), billing_frequency: z.optional(z.enum(['one-time', 'annually', 'semi-annually', 'quarterly', 'monthly', 'weekly'])),
  billing_frequency_cycles: z.optional(z.nullable(z.int())), billing_start_date: z.optional(z.nullable(isoDate())),
});
/** A product line as attaching one (or many) sends it. */
const newLine = () => ({ product_id: id(), item_price: z.number(), quantity: z.number(), ...lineFields() });

const HISTORY = itemHistoryRows({ area: 'deals', noun: 'deal', read: READ, flowSummary: 'Everything that happened on a deal (changes, notes, activities, mails...)' });

export const dealOps = defineTable('deals', {
  list: listRow('/api/v2/deals', 10, READ, 'cursor', () => z.object({ ...dealFilters(), include_option_labels: z.optional(z.boolean()), include_labels: z.optional(z.boolean()), ...cursorQuery(500) }), {
    customFields: 'deal', command: ['deals', 'list'],
    summary: 'List deals (filters, sort, include extra fields)',
    examples: ['crmctl deals list'],
    columns: ['id', 'title', 'value', 'currency', 'stage_id', 'status', 'owner_id'],
    fields: DEAL_FIELDS,
  }),
  get: getRow('/api/v2/deals/{id}', 1, READ, {
    customFields: 'deal', command: ['deals', 'get'],
    summary: 'Show one deal',
    examples: ['crmctl deals get 1'],
    ...SHOWN,
  }, {
    query: () => z.object({ include_fields: z.optional(z.array(z.enum(DEAL_INCLUDE))), custom_fields: z.optional(z.array(z.string().check(z.minLength(1))).check(z.maxLength(15))), include_option_labels: z.optional(z.boolean()), include_labels: z.optional(z.boolean()) }),
  }),
  create: createRow('/api/v2/deals', 5, ['deals:full'], () => z.object({ title: z.string().check(z.trim()).check(z.minLength(1)), ...dealFields() }).check(z.superRefine(statusRules)), {
    help: DEAL_HELP,
    customFields: 'deal', command: ['deals', 'create'],
    ask: ['pipeline_id', 'stage_id'],
    prompts: DEAL_PROMPTS,
    summary: 'Create a deal (in a stage; the first stage of the default pipeline when none is given)',
    examples: ['crmctl deals create --title "Acme licence" --value 24000 --currency EUR --org-id 1 --stage-id 3'],
    ...SHOWN,
  }),
  update: updateRow('PATCH', '/api/v2/deals/{id}', 5, ['deals:full'], {
    help: DEAL_HELP,
    customFields: 'deal', command: ['deals', 'update'],
    summary: 'Change a deal: only the fields you give change (moving stage, winning, losing)',
    examples: ['crmctl deals update 1 --status won'],
    ...SHOWN,
  }, { body: () => z.object({ title: z.optional(z.string().check(z.trim()).check(z.minLength(1))), ...dealFields() }).check(z.superRefine(statusRules)) }),
  delete: deleteRow('/api/v2/deals/{id}', 3, ['deals:full'], {
    command: ['deals', 'delete'],
    summary: 'Delete a deal',
    examples: ['crmctl deals delete 1'],
  }),
  archived: listRow('/api/v2/deals/archived', 20, READ, 'cursor', () => z.object({ ...dealFilters(), ...cursorQuery(500) }), {
    customFields: 'deal', command: ['deals', 'archived'],
    summary: 'List archived deals',
    examples: ['crmctl deals archived'],
    ...SHOWN,
  }),
  search: listRow('/api/v2/deals/search', 20, ['deals:read', 'deals:full', 'search:read'], 'cursor', () => searchQuery({ term: z.string(), fields: z.optional(z.array(z.enum(['custom_fields', 'notes', 'title']))), exact_match: z.optional(z.boolean()), person_id: z.optional(id()), organization_id: z.optional(id()), status: z.optional(z.enum(['open', 'won', 'lost'])), include_fields: z.optional(z.array(z.enum(['deal.cc_email']))), ...cursorQuery(500) }), {
    command: ['deals', 'search'],
    summary: 'Search deals by title, notes or custom fields',
    examples: ['crmctl deals search --term acme'],
    unwrap: 'items',
    columns: ['item.id', 'item.title', 'item.value', 'item.currency', 'item.status', 'result_score'],
  }),
  ...followerRows({ area: 'deals', noun: 'deal', read: READ, write: ['deals:full'], v1Columns: ['id', 'deal_id', 'user_id', 'add_time'], v1Fields: ['user_id', 'id', 'deal_id', 'add_time'] }),
  productsOfDeals: listRow('/api/v2/deals/products', 10, ['products:read', 'products:full', 'deals:read', 'deals:full'], 'cursor', () => z.object({ deal_ids: z.array(id()), sort_by: z.optional(z.enum(['id', 'deal_id', 'add_time', 'update_time', 'order_nr'])), sort_direction: z.optional(z.enum(['asc', 'desc'])), ...cursorQuery(500) }), {
    command: ['deals', 'products', 'of-deals'],
    summary: 'List the products attached to several deals',
    examples: ['crmctl deals products of-deals --deal-ids 1,2'],
    ...PRODUCT_LINE,
  }),
  products: listRow('/api/v2/deals/{id}/products', 10, ['products:read', 'products:full', 'deals:read', 'deals:full'], 'cursor', () => z.object({ sort_by: z.optional(z.enum(['id', 'add_time', 'update_time', 'order_nr'])), sort_direction: z.optional(z.enum(['asc', 'desc'])), ...cursorQuery(500) }), {
    command: ['deals', 'products', 'list'],
    summary: 'List the products attached to a deal',
    examples: ['crmctl deals products list 1'],
    ...PRODUCT_LINE,
  }),
  addProduct: createRow('/api/v2/deals/{id}/products', 5, ['products:full', 'deals:full'], () => z.object(newLine()), {
    command: ['deals', 'products', 'add'],
    summary: 'Attach a product to a deal',
    examples: ['crmctl deals products add 1 --product-id 1 --item-price 100 --quantity 2'],
    ...PRODUCT_LINE,
  }, { successStatus: 201 }),
  addProducts: createRow('/api/v2/deals/{id}/products/bulk', 25, ['products:full', 'deals:full'], () => z.object({ data: z.array(z.object(newLine())).check(z.maxLength(100)) }), {
    command: ['deals', 'products', 'add-many'],
    summary: 'Attach several products to a deal at once (JSON list)',
    examples: ['crmctl deals products add-many 1 --data @products.json'],
    ...PRODUCT_LINE,
  }, { successStatus: 201 }),
  updateProduct: updateRow('PATCH', '/api/v2/deals/{id}/products/{product_attachment_id}', 5, ['products:full', 'deals:full'], {
    command: ['deals', 'products', 'update'],
    summary: 'Change a product attached to a deal (price, quantity, discount...)',
    examples: ['crmctl deals products update 1 1 --quantity 3'],
    ...PRODUCT_LINE,
  }, {
    body: () => z.object({ product_id: z.optional(id()), item_price: z.optional(z.number()), quantity: z.optional(z.number()), ...lineFields() }),
  }),
  deleteProduct: deleteRow('/api/v2/deals/{id}/products/{product_attachment_id}', 3, ['deals:full', 'products:full'], {
    command: ['deals', 'products', 'delete'],
    summary: 'Detach one product from a deal',
    examples: ['crmctl deals products delete 1 1'],
  }),
  deleteProducts: deleteRow('/api/v2/deals/{id}/products', 15, ['products:full', 'deals:full'], {
    command: ['deals', 'products', 'delete-many'],
    summary: 'Detach several products from a deal (all of them without --ids)',
    examples: ['crmctl deals products delete-many 1'],
    columns: ['ids'],
    fields: ['ids'],
  }, { query: () => z.object({ ids: z.optional(z.array(id()).check(z.maxLength(100))) }) }),
  discounts: getRow('/api/v2/deals/{id}/discounts', 10, READ, {
    command: ['deals', 'discounts', 'list'],
    summary: 'List the additional discounts of a deal',
    examples: ['crmctl deals discounts list 1'],
    ...DISCOUNT,
  }),
  addDiscount: createRow('/api/v2/deals/{id}/discounts', 5, READ, () => z.object({ description: z.string(), amount: z.number(), type: z.enum(['percentage', 'amount']) }), {
    command: ['deals', 'discounts', 'add'],
    summary: 'Add a discount to a deal (a percentage or an amount)',
    examples: ['crmctl deals discounts add 1 --description "Loyalty" --amount 10 --type percentage'],
    ...DISCOUNT,
  }, { successStatus: 201 }),
  updateDiscount: updateRow('PATCH', '/api/v2/deals/{id}/discounts/{discount_id}', 5, READ, {
    command: ['deals', 'discounts', 'update'],
    summary: 'Change a discount of a deal',
    examples: ['crmctl deals discounts update 1 <discount-id> --amount 15'],
    ...DISCOUNT,
  }, { params: discountParams, body: () => z.object({ description: z.optional(z.string()), amount: z.optional(z.number()), type: z.optional(z.enum(['percentage', 'amount'])) }) }),
  deleteDiscount: deleteRow('/api/v2/deals/{id}/discounts/{discount_id}', 3, READ, {
    command: ['deals', 'discounts', 'delete'],
    summary: 'Delete a discount of a deal',
    examples: ['crmctl deals discounts delete 1 <discount_id>'],
  }, { params: discountParams }),
  convertToLead: actionRow('/api/v2/deals/{id}/convert/lead', 40, ['deals:full'], {
    command: ['deals', 'convert-to-lead'],
    summary: 'Turn a deal back into a lead (a conversion job; --wait for its lead id)',
    examples: ['crmctl deals convert-to-lead 1'],
    columns: ['conversion_id'],
    fields: ['conversion_id'],
  }, { effect: 'destructive' }),
  conversionStatus: getRow('/api/v2/deals/{id}/convert/status/{conversion_id}', 1, ['deals:full', 'deals:read'], {
    command: ['deals', 'conversion-status'],
    summary: 'Show a deal-to-lead conversion job (lead id once completed)',
    examples: ['crmctl deals conversion-status 1 <conversion-id>'],
    columns: ['status', 'deal_id'],
    fields: ['lead_id', 'deal_id', 'conversion_id', 'status'],
  }, { params: () => z.object({ id: pathId(), conversion_id: uuid() }) }),
  summary: getRow('/api/v1/deals/summary', 40, READ, {
    command: ['deals', 'summary'],
    summary: 'Totals of deals per currency, with weighted values',
    examples: ['crmctl deals summary'],
    columns: SUMMARY_FIELDS,
    fields: SUMMARY_FIELDS,
  }, { query: () => z.object({ status: z.optional(z.enum(['open', 'won', 'lost'])), filter_id: z.optional(id()), user_id: z.optional(id()), pipeline_id: z.optional(id()), stage_id: z.optional(id()) }) }),
  timeline: getRow('/api/v1/deals/timeline', 20, READ, {
    command: ['deals', 'timeline'],
    summary: 'Deals grouped by period of a date field (won_time, expected_close_date...)',
    examples: ['crmctl deals timeline --start-date 2026-01-01 --interval month --amount 3 --field-key won_time'],
    columns: TIMELINE_FIELDS,
    fields: TIMELINE_FIELDS,
  }, { query: () => z.object({ start_date: isoDate(), interval: z.enum(['day', 'week', 'month', 'quarter']), amount: z.int(), field_key: z.string(), user_id: z.optional(id()), pipeline_id: z.optional(id()), filter_id: z.optional(id()), exclude_deals: z.optional(flag01()), totals_convert_currency: z.optional(z.string()) }) }),
  changelog: HISTORY.changelog,
  flow: HISTORY.flow,
  participants: listRow('/api/v1/deals/{id}/participants', 10, READ, 'offset', offsetPage, {
    command: ['deals', 'participants', 'list'],
    summary: 'List the persons taking part in a deal',
    examples: ['crmctl deals participants list 1'],
    ...PARTICIPANT,
  }),
  addParticipant: createRow('/api/v1/deals/{id}/participants', 10, ['deals:full'], () => z.object({ person_id: id() }), {
    command: ['deals', 'participants', 'add'],
    summary: 'Add a person to a deal\'s participants',
    examples: ['crmctl deals participants add 1 --person-id 2'],
    ...PARTICIPANT,
  }),
  deleteParticipant: deleteRow('/api/v1/deals/{id}/participants/{deal_participant_id}', 6, ['deals:full'], {
    command: ['deals', 'participants', 'delete'],
    summary: 'Remove a participant from a deal',
    examples: ['crmctl deals participants delete 1 1'],
  }),
  participantsChangelog: listRow('/api/v1/deals/{id}/participantsChangelog', 10, READ, 'cursor', cursorPage, {
    command: ['deals', 'participants', 'changelog'],
    summary: 'Who was added to or removed from a deal\'s participants',
    examples: ['crmctl deals participants changelog 1'],
    columns: ['person_id'],
    fields: ['actor_user_id', 'person_id', 'action', 'time'],
  }),
  merge: updateRow('PUT', '/api/v1/deals/{id}/merge', 40, ['deals:full'], {
    command: ['deals', 'merge'],
    summary: 'Merge a deal into another (its notes, activities, files and followers move)',
    examples: ['crmctl deals merge 2 --merge-with-id 1 --yes'],
    columns: ['id', 'title', 'label', 'status', 'value', 'currency', 'pipeline_id'],
    fields: [...V1_DEAL_FIELDS, 'merge_what_id'],
    confirm: true,
  }, { body: () => z.object({ merge_with_id: id() }) }),
  duplicate: actionRow('/api/v1/deals/{id}/duplicate', 10, ['deals:full'], {
    command: ['deals', 'duplicate'],
    summary: 'Copy a deal',
    examples: ['crmctl deals duplicate 1'],
    columns: ['id', 'title', 'label', 'status', 'value', 'currency', 'pipeline_id'],
    fields: V1_DEAL_FIELDS,
  }),
  permittedUsers: HISTORY.permittedUsers,
  mailMessages: HISTORY.mailMessages,
  files: HISTORY.files,
} satisfies OperationTable);
