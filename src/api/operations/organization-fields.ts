import { z } from 'zod';
import { defineOperations } from '../operation.js';
import { cursorQuery, id } from '../schemas.js';

/** Types a new organization field can have (interface, Organization field). */
export const ORG_FIELD_TYPES = [
  'varchar', 'varchar_auto', 'text', 'double', 'monetary', 'date', 'set', 'enum', 'user', 'org', 'people', 'phone', 'time',
  'timerange', 'daterange', 'address',
] as const;
/** Only these types carry options. */
export const OPTION_TYPES: readonly string[] = ['enum', 'set'];

// Scopes per operation from api-facts §1 / index-v2: reads also with contacts:*, writes admin or contact-fields:full;
// PATCH of a field and the three option operations also accept contacts:full.
const READ = ['contacts:read', 'contacts:full', 'admin', 'contact-fields:full'];
const CREATE_DELETE = ['admin', 'contact-fields:full'];
const PATCH = ['contacts:full', 'admin', 'contact-fields:full'];

export const ORG_FIELD_FIELDS = [
  'id', 'field_code', 'field_name', 'field_type', 'options', 'subfields', 'is_custom_field', 'is_optional_response_field',
  'ui_visibility', 'important_fields', 'required_fields',
];
const COLUMNS = ['id', 'field_code', 'field_name', 'field_type', 'is_custom_field'];
const OPTION_COLUMNS = ['id', 'label'];

const fieldCode = z.object({ field_code: z.string().trim().min(1) });
const includeFields = z.array(z.enum(['ui_visibility', 'important_fields', 'required_fields'])).optional();

/** A dialog setting: only `show` is the client's; `order` is system-managed, so it is not offered. */
const dialog = z.object({ show: z.boolean() });
const uiVisibility = z.object({
  add_visible_flag: z.boolean().optional(),
  details_visible_flag: z.boolean().optional(),
  show_in_add_deal_dialog: dialog.optional(),
  show_in_add_person_dialog: dialog.optional(),
});
const importantFields = z.object({ enabled: z.boolean().optional(), stage_ids: z.array(id).optional() });
const requiredFields = z.object({ enabled: z.boolean().optional() });
const fieldName = z.string().trim().min(1).max(255);

/** Unknown top-level keys are refused (with the immutability rule spelled out), not silently dropped. */
function strictBody<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (iss) => {
      if (iss.code !== 'unrecognized_keys') return undefined;
      const immutable = iss.keys.filter((k) => k === 'field_code' || k === 'field_type');
      return immutable.length
        ? `${immutable.join(' and ')} cannot change (immutable)`
        : `unknown field ${iss.keys.join(', ')}; allowed: ${Object.keys(shape).join(', ')}`;
    },
  });
}

/** important_fields.stage_ids stays empty unless the field is important (enabled). */
function checkImportant(b: { important_fields?: { enabled?: boolean; stage_ids?: number[] } }, ctx: z.RefinementCtx, enabledDefault: boolean | undefined): void {
  const imp = b.important_fields;
  if (!imp?.stage_ids?.length) return;
  const enabled = imp.enabled ?? enabledDefault;
  if (enabled === false) {
    ctx.addIssue({ code: 'custom', path: ['important_fields', 'stage_ids'], message: 'must be empty unless the field is important (--important true)' });
  }
}

const createBody = strictBody({
  field_name: fieldName,
  field_type: z.enum(ORG_FIELD_TYPES),
  options: z.array(z.object({ label: z.string().trim().min(1) })).min(1).optional(),
  ui_visibility: uiVisibility.optional(),
  important_fields: importantFields.optional(),
  required_fields: requiredFields.optional(),
}).superRefine((b, ctx) => {
  const takesOptions = OPTION_TYPES.includes(b.field_type);
  if (takesOptions && !b.options?.length) {
    ctx.addIssue({ code: 'custom', path: ['options'], message: `is required for field type ${b.field_type}: give --option LABEL (repeatable)` });
  }
  if (!takesOptions && b.options !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['options'], message: `only enum and set fields have options (field type is ${b.field_type})` });
  }
  // On create, enabled defaults to false.
  checkImportant(b, ctx, false);
});

const UPDATE_MEMBERS = ['field_name', 'ui_visibility', 'important_fields', 'required_fields'];
const updateBody = strictBody({
  field_name: fieldName.optional(),
  ui_visibility: uiVisibility.optional(),
  important_fields: importantFields.optional(),
  required_fields: requiredFields.optional(),
}).superRefine((b, ctx) => {
  if (!UPDATE_MEMBERS.some((k) => (b as Record<string, unknown>)[k] !== undefined)) {
    ctx.addIssue({ code: 'custom', path: [], message: `at least one of ${UPDATE_MEMBERS.join(', ')} is needed` });
  }
  // On update an absent `enabled` keeps the stored value; the command's preflight reads it.
  checkImportant(b, ctx, undefined);
});

const FLAG_NAMES = {
  'ui_visibility.add_visible_flag': 'add-visible',
  'ui_visibility.details_visible_flag': 'details-visible',
  'ui_visibility.show_in_add_deal_dialog.show': 'show-in-add-deal',
  'ui_visibility.show_in_add_person_dialog.show': 'show-in-add-person',
  'important_fields.enabled': 'important',
  'important_fields.stage_ids': 'important-stage-ids',
  'required_fields.enabled': 'required',
};
const HELP = {
  field_name: 'label shown in the app (1-255 characters)',
  field_type: 'immutable once created',
  options: 'JSON array of {"label"}; easier: --option LABEL (repeatable); enum and set only',
  'ui_visibility.add_visible_flag': 'show in the add-organization dialog (default false; the system field name always shows)',
  'ui_visibility.details_visible_flag': 'show in the organization details view (default true)',
  'ui_visibility.show_in_add_deal_dialog.show': 'show when adding a deal (custom and certain system fields); the order is assigned by the service',
  'ui_visibility.show_in_add_person_dialog.show': 'show when adding a person (custom and certain system fields); the order is assigned by the service',
  'important_fields.enabled': 'highlight the field (default false); with no stage ids it is important everywhere',
  'important_fields.stage_ids': 'active deal stage ids where the field is important (needs --important true; see crmctl org-fields stages)',
  'required_fields.enabled': 'mandatory when organizations are created or updated in the web UI (default false)',
};

const optionsPath = '/api/v2/organizationFields/{field_code}/options';

export const organizationFieldOperations = defineOperations([
  {
    id: 'organizationFields.list',
    method: 'GET',
    path: '/api/v2/organizationFields',
    cost: 10,
    scopes: READ,
    pagination: 'cursor',
    maxLimit: 500,
    query: z.object({ include_fields: includeFields, ...cursorQuery(500) }),
    cli: {
      command: ['org-fields', 'list'],
      summary: 'List organization fields (system and custom)',
      examples: ['crmctl org-fields list', 'crmctl org-fields list --include-fields ui_visibility,important_fields,required_fields --all --json'],
      columns: COLUMNS,
      fields: ORG_FIELD_FIELDS,
      help: { include_fields: 'extra members, returned only when asked' },
    },
  },
  {
    id: 'organizationFields.get',
    method: 'GET',
    path: '/api/v2/organizationFields/{field_code}',
    cost: 1,
    scopes: READ,
    pagination: 'none',
    params: fieldCode,
    query: z.object({ include_fields: includeFields }),
    cli: {
      command: ['org-fields', 'get'],
      summary: 'Show one organization field by its field code',
      examples: ['crmctl org-fields get name --include-fields ui_visibility,required_fields'],
      columns: [...COLUMNS, 'options', 'ui_visibility', 'important_fields', 'required_fields'],
      fields: ORG_FIELD_FIELDS,
      help: { include_fields: 'extra members, returned only when asked' },
    },
  },
  {
    id: 'organizationFields.create',
    method: 'POST',
    path: '/api/v2/organizationFields',
    cost: 5,
    scopes: CREATE_DELETE,
    pagination: 'none',
    body: createBody,
    cli: {
      command: ['org-fields', 'create'],
      summary: 'Create a custom organization field (its field code is generated)',
      examples: [
        'crmctl org-fields create --field-name Industry --field-type enum --option Technology --option Finance --add-visible true',
        'crmctl org-fields create --field-name "Credit limit" --field-type monetary --important true --important-stage-ids 3,4',
      ],
      columns: COLUMNS,
      fields: ORG_FIELD_FIELDS,
      flagNames: FLAG_NAMES,
      help: HELP,
      handWritten: true,
    },
  },
  {
    id: 'organizationFields.update',
    method: 'PATCH',
    path: '/api/v2/organizationFields/{field_code}',
    cost: 5,
    scopes: PATCH,
    pagination: 'none',
    params: fieldCode,
    body: updateBody,
    cli: {
      command: ['org-fields', 'update'],
      summary: 'Change an organization field: name, UI visibility, important or required settings (code and type never change)',
      examples: ['crmctl org-fields update <field-code> --field-name "Industry (NACE)" --required true', 'crmctl org-fields update name --show-in-add-deal true'],
      columns: COLUMNS,
      fields: ORG_FIELD_FIELDS,
      flagNames: FLAG_NAMES,
      help: HELP,
      handWritten: true,
    },
  },
  {
    id: 'organizationFields.delete',
    method: 'DELETE',
    path: '/api/v2/organizationFields/{field_code}',
    cost: 3,
    scopes: CREATE_DELETE,
    pagination: 'none',
    params: fieldCode,
    cli: {
      command: ['org-fields', 'delete'],
      summary: 'Delete a custom organization field; prints the deleted field',
      examples: ['crmctl org-fields delete <field-code> --yes'],
      confirm: true,
      columns: COLUMNS,
      fields: ORG_FIELD_FIELDS,
    },
  },
  {
    id: 'organizationFields.deleteMany',
    method: 'DELETE',
    path: '/api/v1/organizationFields',
    cost: 10,
    scopes: CREATE_DELETE,
    pagination: 'none',
    query: z.object({ ids: z.array(id).min(1) }),
    cli: {
      command: ['org-fields', 'delete-many'],
      summary: 'Delete several organization fields by their numeric ids',
      examples: ['crmctl org-fields delete-many --ids 12,13 --yes'],
      confirm: true,
      columns: ['id'],
      help: { ids: 'numeric field ids (the id column of crmctl org-fields list)' },
    },
  },
  {
    id: 'organizationFields.addOptions',
    method: 'POST',
    path: optionsPath,
    cost: 5,
    scopes: PATCH,
    pagination: 'none',
    params: fieldCode,
    body: z.array(z.object({ label: z.string().trim().min(1) })).min(1),
    cli: {
      command: ['org-fields', 'options', 'add'],
      summary: 'Add options to an enum or set field (all or nothing); prints only the added ones',
      examples: ['crmctl org-fields options add <field-code> --label Retail --label "Public sector"'],
      columns: OPTION_COLUMNS,
      handWritten: true,
    },
  },
  {
    id: 'organizationFields.updateOptions',
    method: 'PATCH',
    path: optionsPath,
    cost: 5,
    scopes: PATCH,
    pagination: 'none',
    params: fieldCode,
    body: z.array(z.object({ id, label: z.string().trim().min(1) })).min(1),
    cli: {
      command: ['org-fields', 'options', 'update'],
      summary: 'Relabel options of an enum or set field (all or nothing); prints only the updated ones',
      examples: ['crmctl org-fields options update <field-code> --option "12=Information technology" --option 13=Banking'],
      columns: OPTION_COLUMNS,
      handWritten: true,
    },
  },
  {
    id: 'organizationFields.deleteOptions',
    method: 'DELETE',
    path: optionsPath,
    cost: 3,
    scopes: PATCH,
    pagination: 'none',
    params: fieldCode,
    body: z.array(z.object({ id })).min(1),
    cli: {
      command: ['org-fields', 'options', 'delete'],
      summary: 'Delete options of an enum or set field (all or nothing); prints only the deleted ones',
      examples: ['crmctl org-fields options delete <field-code> --id 12,13 --yes'],
      confirm: true,
      columns: OPTION_COLUMNS,
      handWritten: true,
    },
  },
  // Not an organization-fields operation: the vendor's v2 stage list (cost 5, index-v2). It is read only to check
  // that important_fields.stage_ids are active deal stages before a create/update is sent; the command shows the ids.
  {
    id: 'stages.list',
    method: 'GET',
    path: '/api/v2/stages',
    cost: 5,
    scopes: ['deals:read', 'deals:full', 'admin'],
    pagination: 'cursor',
    maxLimit: 500,
    query: z.object({ pipeline_id: id.optional(), ...cursorQuery(500) }),
    cli: {
      command: ['org-fields', 'stages'],
      summary: 'List active deal stages (the ids --important-stage-ids accepts)',
      examples: ['crmctl org-fields stages --pipeline-id 1'],
      columns: ['id', 'name', 'pipeline_id', 'order_nr'],
      fields: ['id', 'name', 'pipeline_id', 'order_nr', 'is_deleted', 'deal_probability', 'is_deal_rot_enabled', 'days_to_rotten', 'add_time', 'update_time'],
    },
  },
]);
