import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, searchQuery } from '../schemas.js';
import { listRow } from './rows.js';

export const searchOps = defineTable('search', {
  items: listRow('/api/v2/itemSearch', 20, ['search:read'], 'cursor', () => searchQuery({ term: z.string(), item_types: z.optional(z.array(z.enum(['deal', 'person', 'organization', 'product', 'lead', 'file', 'mail_attachment', 'project']))), fields: z.optional(z.array(z.enum(['address', 'code', 'custom_fields', 'email', 'name', 'notes', 'phone', 'title', 'description']))), search_for_related_items: z.optional(z.boolean()), exact_match: z.optional(z.boolean()), include_fields: z.optional(z.array(z.enum(['deal.cc_email', 'person.picture', 'product.price']))), ...cursorQuery(500) }), {
    command: ['search', 'items'],
    summary: 'Search across deals, persons, organizations, leads, products, files and mail attachments',
    examples: ['crmctl search items --term acme'],
    unwrap: 'items',
    columns: ['item.type', 'item.id', 'item.title', 'item.name', 'result_score'],
  }),
  field: listRow('/api/v2/itemSearch/field', 20, ['search:read'], 'cursor', () => searchQuery({ term: z.string(), entity_type: z.enum(['deal', 'lead', 'person', 'organization', 'product', 'project']), match: z.optional(z.enum(['exact', 'beginning', 'middle'])), field: z.string(), ...cursorQuery(500) }), {
    command: ['search', 'field'],
    summary: 'Search the values of one field (e.g. all organization names starting with a term)',
    examples: ['crmctl search field --term acme --entity-type organization --field name'],
    columns: ['result_score', 'item'],
    fields: ['result_score', 'item'],
  }),
} satisfies OperationTable);
