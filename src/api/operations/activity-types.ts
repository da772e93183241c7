import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { createRow, deleteRow, getRow, updateRow } from './rows.js';

/** Icons the service offers (interface, Activity type table). */
export const ACTIVITY_ICON_KEYS = [
  'task', 'email', 'meeting', 'deadline', 'call', 'lunch', 'calendar', 'downarrow', 'document', 'smartphone', 'camera',
  'scissors', 'cogs', 'bubble', 'uparrow', 'checkbox', 'signpost', 'shuffle', 'addressbook', 'linegraph', 'picture', 'car',
  'world', 'search', 'clip', 'sound', 'brush', 'key', 'padlock', 'pricetag', 'suitcase', 'finish', 'plane', 'loop', 'wifi',
  'truck', 'cart', 'bulb', 'bell', 'presentation',
] as const;

const READ = ['activities:read', 'activities:full', 'admin'];
const WRITE = ['admin'];
const FIELDS = ['id', 'name', 'key_string', 'icon_key', 'color', 'order_nr', 'active_flag', 'is_custom_flag', 'add_time', 'update_time'];
const COLUMNS = ['id', 'name', 'key_string', 'icon_key', 'color', 'order_nr', 'is_custom_flag'];

const name = once(() => z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(255)));
const iconKey = once(() => z.enum(ACTIVITY_ICON_KEYS));
const color = once(() => z.string().check(z.regex(/^[0-9A-Fa-f]{6}$/, { error: 'must be 6 hex characters without a leading #, e.g. FFCC00' })));

/**
 * Strict bodies: key_string is generated from the name and immutable, so a --data body that tries to set it
 * (or carries any unknown key) is refused before sending instead of being silently dropped.
 */
const strictBody = <T extends z.core.$ZodShape>(shape: T) =>
  z.strictObject(shape, {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? iss.keys.includes('key_string')
          ? 'key_string is generated from the name and cannot be set'
          : `unknown field ${iss.keys.join(', ')}; allowed: ${Object.keys(shape).join(', ')}`
        : undefined,
  });

const HELP = {
  name: 'shown in the app; key_string is generated from it on create and never changes',
  icon_key: 'one of the service\'s icons (see choices)',
  color: '6 hex characters without #, e.g. FFCC00',
  order_nr: 'display order (0 or more)',
};

export const activityTypeOps = defineTable('activityTypes', {
  list: getRow('/api/v1/activityTypes', 20, READ, {
    command: ['activity-types', 'list'],
    summary: 'List the activity types of the account (calls, meetings, custom ones)',
    examples: ['crmctl activity-types list', 'crmctl activity-types list --output tsv --fields id,key_string'],
    columns: COLUMNS,
    fields: FIELDS,
  }),
  create: createRow('/api/v1/activityTypes', 10, WRITE, () => strictBody({ name: name(), icon_key: iconKey(), color: z.optional(color()) }), {
    command: ['activity-types', 'create'],
    summary: 'Create an activity type (its key_string is generated from the name)',
    examples: ['crmctl activity-types create --name "Site visit" --icon-key car --color 2E86DE'],
    columns: COLUMNS,
    fields: FIELDS,
    help: HELP,
  }),
  update: updateRow('PUT', '/api/v1/activityTypes/{id}', 10, WRITE, {
    prompts: { id: { from: 'activityTypes.list' } },
    command: ['activity-types', 'update'],
    summary: 'Rename, re-icon, recolour or reorder an activity type (key_string stays)',
    examples: ['crmctl activity-types update 7 --name "On-site visit" --order-nr 2'],
    columns: COLUMNS,
    fields: FIELDS,
    help: HELP,
  }, {
    body: () => strictBody({ name: z.optional(name()), icon_key: z.optional(iconKey()), color: z.optional(color()), order_nr: z.optional(z.int().check(z.gte(0))) }),
  }),
  delete: deleteRow('/api/v1/activityTypes/{id}', 6, WRITE, {
    prompts: { id: { from: 'activityTypes.list' } },
    command: ['activity-types', 'delete'],
    summary: 'Delete (deactivate) an activity type; prints the deactivated type',
    examples: ['crmctl activity-types delete 7 --yes'],
    columns: COLUMNS,
    fields: FIELDS,
  }),
} satisfies OperationTable);
