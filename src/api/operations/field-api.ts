import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationRow, type PromptSource } from '../operation.js';
import { cursorQuery, id, pathId } from '../schemas.js';

// The custom-field API is the same for organizations, deals, persons, products and projects (the v2
// Field form, plus the older v1 form of most of them): one description here, one table per item
// type built from it (organization-fields.ts, deal-fields.ts, ...), each with that type's scopes.

/** Types a new custom field can have. */
export const FIELD_TYPES = [
  'varchar', 'varchar_auto', 'text', 'double', 'monetary', 'date', 'set', 'enum', 'user', 'org', 'people', 'phone', 'time',
  'timerange', 'daterange', 'address',
] as const;
/** Only these types carry options. */
export const OPTION_TYPES: readonly string[] = ['enum', 'set'];

export const FIELD_FIELDS = [
  'field_code', 'field_name', 'field_type', 'options', 'subfields', 'is_custom_field', 'is_optional_response_field',
  'ui_visibility', 'important_fields', 'required_fields',
];
export const V1_FIELD_FIELDS = ['id', 'key', 'name', 'order_nr', 'field_type', 'add_time', 'update_time', 'active_flag', 'edit_flag', 'add_visible_flag', 'important_flag', 'bulk_edit_allowed', 'mandatory_flag', 'options'];
// v2 field records have no numeric id (the field code names them); `--v1` lists show the ids v1 deletes take.
const COLUMNS = ['field_code', 'field_name', 'field_type', 'is_custom_field'];
const V1_COLUMNS = ['id', 'key', 'name', 'field_type', 'active_flag'];
const OPTION_COLUMNS = ['id', 'label'];

const fieldCode = once(() => z.object({ field_code: z.string().check(z.trim()).check(z.minLength(1)) }));
const fieldName = once(() => z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(255)));
/** A dialog setting: only `show` is the client's; `order` is system-managed, so it is not offered. */
const dialog = once(() => z.object({ show: z.boolean() }));
const uiVisibility = once(() => z.object({
  add_visible_flag: z.optional(z.boolean()),
  details_visible_flag: z.optional(z.boolean()),
  show_in_add_deal_dialog: z.optional(dialog()),
  show_in_add_person_dialog: z.optional(dialog()),
}));
const importantFields = once(() => z.object({ enabled: z.optional(z.boolean()), stage_ids: z.optional(z.array(id())) }));
const requiredFields = once(() => z.object({ enabled: z.optional(z.boolean()) }));
const option = once(() => z.object({ label: z.string().check(z.trim()).check(z.minLength(1)) }));

/** Unknown top-level keys are refused (with the immutability rule spelled out), not silently dropped. */
function strictBody<T extends z.core.$ZodShape>(shape: T, fixedRule: string) {
  return z.strictObject(shape, {
    error: (iss) => {
      if (iss.code !== 'unrecognized_keys') return undefined;
      const fixed = iss.keys.filter((k) => k === 'field_code' || k === 'field_type');
      return fixed.length ? `${fixed.join(' and ')} ${fixedRule}` : `unknown field ${iss.keys.join(', ')}; allowed: ${Object.keys(shape).join(', ')}`;
    },
  });
}

/** important_fields.stage_ids stays empty unless the field is important (enabled). */
function checkImportant(b: { important_fields?: { enabled?: boolean; stage_ids?: number[] } }, ctx: z.core.$RefinementCtx, enabledDefault: boolean | undefined): void {
  const imp = b.important_fields;
  if (!imp?.stage_ids?.length) return;
  if ((imp.enabled ?? enabledDefault) === false) {
    ctx.addIssue({ code: 'custom', path: ['important_fields', 'stage_ids'], message: 'must be empty unless the field is important (--important true)' });
  }
}

/** Product fields have no important setting at the vendor: refuse it rather than send it. */
function notImportant(e: FieldEntity, b: { important_fields?: unknown }, ctx: z.core.$RefinementCtx): void {
  if (!e.important && b.important_fields !== undefined) ctx.addIssue({ code: 'custom', path: ['important_fields'], message: `${e.noun} fields cannot be marked important` });
}

function optionRules(b: { field_type: string; options?: unknown[] }, ctx: z.core.$RefinementCtx, flag: string): void {
  const takesOptions = OPTION_TYPES.includes(b.field_type);
  if (takesOptions && !b.options?.length) ctx.addIssue({ code: 'custom', path: ['options'], message: `is required for field type ${b.field_type}: give ${flag}` });
  if (!takesOptions && b.options !== undefined) ctx.addIssue({ code: 'custom', path: ['options'], message: `only enum and set fields have options (field type is ${b.field_type})` });
}

const FLAG_NAMES = {
  'ui_visibility.add_visible_flag': 'add-visible',
  'ui_visibility.details_visible_flag': 'details-visible',
  'ui_visibility.show_in_add_deal_dialog.show': 'show-in-add-deal',
  'ui_visibility.show_in_add_person_dialog.show': 'show-in-add-person',
  'important_fields.enabled': 'important',
  'important_fields.stage_ids': 'important-stage-ids',
  'required_fields.enabled': 'required',
};

/** What differs between item types: names, paths, scopes, and whether fields can be important. */
export interface FieldEntity {
  /** Command area, e.g. 'deal-fields'. */
  command: string;
  /** Operation id area, e.g. 'dealFields' (also the path segment). */
  area: string;
  /** 'deal', 'organization', ... for help texts. */
  noun: string;
  read: readonly string[];
  create: readonly string[];
  patch: readonly string[];
  remove: readonly string[];
  /** Product fields have no important setting. */
  important: boolean;
  /** The v1 form exists for this item type (scopes of its reads and writes). */
  v1?: { read: readonly string[]; write: readonly string[]; createStatus?: 201 };
  /** The reads take include_fields (the vendor documents none for project fields). */
  include?: false;
}

function help(e: FieldEntity): Record<string, string> {
  return {
    field_name: 'label shown in the app (1-255 characters)',
    field_type: 'immutable once created',
    options: 'JSON array of {"label"}; easier: --option LABEL (repeatable); enum and set only',
    'ui_visibility.add_visible_flag': `show in the add-${e.noun} dialog (default false; a system name field always shows)`,
    'ui_visibility.details_visible_flag': `show in the ${e.noun} details view (default true)`,
    'ui_visibility.show_in_add_deal_dialog.show': 'show when adding a deal (custom and certain system fields); the order is assigned by the service',
    'ui_visibility.show_in_add_person_dialog.show': 'show when adding a person (custom and certain system fields); the order is assigned by the service',
    'important_fields.enabled': 'highlight the field (default false); with no stage ids it is important everywhere',
    'important_fields.stage_ids': 'active deal stage ids where the field is important (needs --important true; see crmctl stages list)',
    'required_fields.enabled': `mandatory when ${e.noun}s are created or updated in the web UI (default false)`,
  };
}

/** The v2 field operations of one item type (list, get, create, update, delete, options). */
export function fieldRows(e: FieldEntity) {
  const base = `/api/v2/${e.area}`;
  const cmd = (...words: string[]) => [e.command, ...words];
  const codePrompt: Record<string, PromptSource> = { field_code: { from: `${e.area}.list`, value: 'field_code', label: 'field_name' } };
  const includeFields = z.optional(z.array(z.enum(e.important ? ['ui_visibility', 'important_fields', 'required_fields'] : ['ui_visibility', 'required_fields'])));
  const updateMembers = ['field_name', 'ui_visibility', ...(e.important ? ['important_fields'] : []), 'required_fields'];
  const createBody = () => strictBody({
    field_name: fieldName(),
    field_type: z.enum(FIELD_TYPES),
    options: z.optional(z.array(option()).check(z.minLength(1))),
    ui_visibility: z.optional(uiVisibility()),
    important_fields: z.optional(importantFields()),
    required_fields: z.optional(requiredFields()),
  }, 'is generated by the service and cannot be set').check(z.superRefine((b, ctx) => {
    optionRules(b, ctx, '--option LABEL (repeatable)');
    notImportant(e, b, ctx);
    // On create, enabled defaults to false.
    checkImportant(b, ctx, false);
  }));
  const updateBody = () => strictBody({
    field_name: z.optional(fieldName()),
    ui_visibility: z.optional(uiVisibility()),
    important_fields: z.optional(importantFields()),
    required_fields: z.optional(requiredFields()),
  }, 'cannot change (immutable)').check(z.superRefine((b, ctx) => {
    notImportant(e, b, ctx);
    if (!updateMembers.some((k) => (b as Record<string, unknown>)[k] !== undefined)) ctx.addIssue({ code: 'custom', path: [], message: `at least one of ${updateMembers.join(', ')} is needed` });
    // On update an absent `enabled` keeps the stored value; the command's preflight reads it.
    checkImportant(b, ctx, undefined);
  }));
  const stagePrompt: Record<string, PromptSource> = e.important ? { 'important_fields.stage_ids': { from: 'stages.list' } } : {};
  return {
    list: {
      method: 'GET', path: base, cost: 10, scopes: e.read, pagination: 'cursor', maxLimit: 500,
      query: () => e.include === false ? z.object({ ...cursorQuery(500) }) : z.object({ include_fields: includeFields, ...cursorQuery(500) }),
      cli: {
        command: cmd('list'), summary: `List ${e.noun} fields (system and custom)`,
        examples: [`crmctl ${e.command} list`, e.include === false ? `crmctl ${e.command} list --all --json` : `crmctl ${e.command} list --include-fields ui_visibility,required_fields --all --json`],
        columns: COLUMNS, fields: FIELD_FIELDS, help: (e.include === false ? {} : { include_fields: 'extra members, returned only when asked' }) as Record<string, string>,
      },
    },
    get: {
      method: 'GET', path: `${base}/{field_code}`, cost: 1, scopes: e.read, pagination: 'none', params: fieldCode(),
      query: () => e.include === false ? z.object({}) : z.object({ include_fields: includeFields }),
      cli: {
        command: cmd('get'), summary: `Show one ${e.noun} field by its field code`,
        examples: [e.include === false ? `crmctl ${e.command} get <field-code>` : `crmctl ${e.command} get <field-code> --include-fields ui_visibility`],
        columns: [...COLUMNS, 'options', 'ui_visibility', 'important_fields', 'required_fields'], fields: FIELD_FIELDS, help: (e.include === false ? {} : { include_fields: 'extra members, returned only when asked' }) as Record<string, string>,
      },
    },
    create: {
      method: 'POST', path: base, cost: 5, scopes: e.create, pagination: 'none', body: createBody,
      cli: {
        prompts: stagePrompt, command: cmd('create'), summary: `Create a custom ${e.noun} field (its field code is generated)`,
        examples: [`crmctl ${e.command} create --field-name Region --field-type enum --option North --option South --add-visible true`],
        columns: COLUMNS, fields: FIELD_FIELDS, flagNames: FLAG_NAMES, help: help(e),
      },
    },
    update: {
      method: 'PATCH', path: `${base}/{field_code}`, cost: 5, scopes: e.patch, pagination: 'none', params: fieldCode(), body: updateBody,
      cli: {
        prompts: { ...codePrompt, ...stagePrompt }, command: cmd('update'),
        summary: `Change a ${e.noun} field: name, UI visibility, important or required settings (code and type never change)`,
        examples: [`crmctl ${e.command} update <field-code> --field-name "Sales region" --required true`],
        columns: COLUMNS, fields: FIELD_FIELDS, flagNames: FLAG_NAMES, help: help(e),
      },
    },
    delete: {
      method: 'DELETE', path: `${base}/{field_code}`, cost: 3, scopes: e.remove, pagination: 'none', params: fieldCode(),
      cli: { prompts: codePrompt, command: cmd('delete'), summary: `Delete a custom ${e.noun} field; prints the deleted field`, examples: [`crmctl ${e.command} delete <field-code> --yes`], confirm: true, columns: COLUMNS, fields: FIELD_FIELDS },
    },
    addOptions: {
      method: 'POST', path: `${base}/{field_code}/options`, cost: 5, scopes: e.patch, pagination: 'none', params: fieldCode(), body: () => z.array(option()).check(z.minLength(1)),
      cli: { prompts: codePrompt, command: cmd('options', 'add'), summary: 'Add options to an enum or set field (all or nothing); prints only the added ones', examples: [`crmctl ${e.command} options add <field-code> --label Retail --label "Public sector"`], columns: OPTION_COLUMNS },
    },
    updateOptions: {
      method: 'PATCH', path: `${base}/{field_code}/options`, cost: 5, scopes: e.patch, pagination: 'none', params: fieldCode(), body: () => z.array(z.object({ id: id(), label: z.string().check(z.trim()).check(z.minLength(1)) })).check(z.minLength(1)),
      cli: { prompts: codePrompt, command: cmd('options', 'update'), summary: 'Relabel options of an enum or set field (all or nothing); prints only the updated ones', examples: [`crmctl ${e.command} options update <field-code> --option "12=Information technology"`], columns: OPTION_COLUMNS },
    },
    deleteOptions: {
      method: 'DELETE', path: `${base}/{field_code}/options`, cost: 3, scopes: e.patch, pagination: 'none', params: fieldCode(), body: () => z.array(z.object({ id: id() })).check(z.minLength(1)),
      cli: { prompts: codePrompt, command: cmd('options', 'delete'), summary: 'Delete options of an enum or set field (all or nothing); prints only the deleted ones', examples: [`crmctl ${e.command} options delete <field-code> --id 12,13 --yes`], confirm: true, columns: OPTION_COLUMNS },
    },
  } satisfies Record<string, OperationRow>;
}

/** The v1 forms of the field API: the same jobs by numeric field id (`--v1`), plus deleting several at once. */
export function fieldRowsV1(e: FieldEntity & { v1: NonNullable<FieldEntity['v1']> }) {
  const base = `/api/v1/${e.area}`;
  const cmd = (...words: string[]) => [e.command, ...words];
  const idParam = z.object({ id: pathId() });
  const v1Options = z.array(option()).check(z.minLength(1));
  const TYPES_V1 = [...FIELD_TYPES, 'visible_to'] as const;
  return {
    listV1: {
      method: 'GET', path: base, cost: 20, scopes: e.v1.read, pagination: 'offset', maxLimit: 500, query: () => z.object({ start: z.optional(z.int().check(z.gte(0))), limit: z.optional(z.int().check(z.gte(1)).check(z.lte(500))) }),
      cli: { command: cmd('list'), switch: '--v1', summary: `List ${e.noun} fields in the v1 form (numeric ids, keys)`, examples: [`crmctl ${e.command} list --v1`], columns: V1_COLUMNS, fields: V1_FIELD_FIELDS },
    },
    getV1: {
      method: 'GET', path: `${base}/{id}`, cost: 2, scopes: e.v1.read, pagination: 'none', params: idParam,
      cli: { command: cmd('get'), switch: '--v1', summary: `Show one ${e.noun} field by its numeric id (v1 form)`, examples: [`crmctl ${e.command} get 12 --v1`], columns: V1_COLUMNS, fields: V1_FIELD_FIELDS },
    },
    createV1: {
      method: 'POST', path: base, cost: 10, scopes: e.v1.write, pagination: 'none', ...(e.v1.createStatus ? { successStatus: e.v1.createStatus } : {}),
      body: () => z.object({ name: fieldName(), field_type: z.enum(TYPES_V1), options: z.optional(v1Options), add_visible_flag: z.optional(z.boolean()) }).check(z.superRefine((b, ctx) => optionRules(b, ctx, '--options \'[{"label":"..."}]\''))),
      cli: { command: cmd('create'), switch: '--v1', summary: `Create a custom ${e.noun} field (v1 form)`, examples: [`crmctl ${e.command} create --v1 --name Region --field-type varchar`], columns: V1_COLUMNS, fields: V1_FIELD_FIELDS },
    },
    updateV1: {
      method: 'PUT', path: `${base}/{id}`, cost: 10, scopes: e.v1.write, pagination: 'none', params: idParam,
      body: () => z.object({ name: z.optional(fieldName()), options: z.optional(v1Options), add_visible_flag: z.optional(z.boolean()) }),
      cli: { command: cmd('update'), switch: '--v1', summary: `Change a ${e.noun} field by its numeric id (v1 form)`, examples: [`crmctl ${e.command} update 12 --v1 --name "Sales region"`], columns: V1_COLUMNS, fields: V1_FIELD_FIELDS },
    },
    deleteV1: {
      method: 'DELETE', path: `${base}/{id}`, cost: 6, scopes: e.v1.write, pagination: 'none', params: idParam,
      cli: { command: cmd('delete'), switch: '--v1', summary: `Delete a ${e.noun} field by its numeric id (v1 form)`, examples: [`crmctl ${e.command} delete 12 --v1 --yes`], confirm: true, columns: ['id'] },
    },
    deleteMany: {
      method: 'DELETE', path: base, cost: 10, scopes: e.v1.write, pagination: 'none', query: () => z.object({ ids: z.array(id()).check(z.minLength(1)) }),
      cli: {
        command: cmd('delete-many'), summary: `Delete several ${e.noun} fields by their numeric ids`, examples: [`crmctl ${e.command} delete-many --ids 12,13 --yes`],
        confirm: true, columns: ['id'], help: { ids: `numeric field ids (the id column of crmctl ${e.command} list)` },
      },
    },
  } satisfies Record<string, OperationRow>;
}

/** The table of an item type whose fields have both forms: the v2 rows and their `--v1` forms. */
export function fieldTableWithV1(e: FieldEntity & { v1: NonNullable<FieldEntity['v1']> }) {
  return defineTable(e.area, { ...fieldRows(e), ...fieldRowsV1(e) });
}

/**
 * Organization and person fields share the contact scopes (the vendor's OpenAPI): reads also with
 * contacts:*, writes admin or contact-fields:full; PATCH of a field and the three option operations
 * also accept contacts:full.
 */
export const CONTACT_FIELD_SCOPES = {
  read: ['contacts:read', 'contacts:full', 'admin', 'contact-fields:full'],
  create: ['admin', 'contact-fields:full'],
  patch: ['contacts:full', 'admin', 'contact-fields:full'],
  remove: ['admin', 'contact-fields:full'],
  important: true,
  v1: { read: ['contacts:read', 'contacts:full', 'contact-fields:full', 'admin'], write: ['contact-fields:full', 'admin'] },
} as const;
