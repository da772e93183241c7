import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { id } from '../schemas.js';
import { createRow, deleteRow, getRow, listRow, offsetPage, updateRow } from './rows.js';

// Roles are admin-only for reads and writes (the vendor's documents).
const ADMIN = ['admin'];

export const ROLE_FIELDS = ['id', 'name', 'parent_role_id', 'level', 'active_flag', 'assignment_count', 'sub_role_count'];
const ROLE_COLUMNS = ['id', 'name', 'parent_role_id', 'level', 'assignment_count', 'sub_role_count', 'active_flag'];
export const ASSIGNMENT_FIELDS = ['user_id', 'role_id', 'parent_role_id', 'name', 'active_flag', 'type'];
export const VISIBILITY_SETTING_KEYS = [
  'deal_default_visibility',
  'lead_default_visibility',
  'org_default_visibility',
  'person_default_visibility',
  'product_default_visibility',
] as const;
/** Settings as GET /roles/{id}/settings answers them; the access levels appear only for the default role. */
export const SETTING_FIELDS = [...VISIBILITY_SETTING_KEYS, 'deal_access_level', 'org_access_level', 'person_access_level', 'product_access_level'];

/** 1, 3, 5, 7 with a message that says which (a bare literal union reports only "Invalid input"). */
const visibility = once(() => z.union([z.literal(1), z.literal(3), z.literal(5), z.literal(7)], {
  error: (iss) => (iss.input === undefined ? 'is required' : 'must be one of 1, 3, 5, 7'),
}));

const pipelineIds = once(() => z.array(id()));

const VISIBILITY_HELP = '1 owner (and followers), 3 owner\'s group (company on Light/Growth), 5 group and sub-groups, 7 entire company';

export const roleOps = defineTable('roles', {
  list: listRow('/api/v1/roles', 20, ADMIN, 'offset', offsetPage, {
    command: ['roles', 'list'],
    summary: 'List the roles of the company with their place in the hierarchy',
    examples: ['crmctl roles list', 'crmctl roles list --all --output tsv'],
    columns: ROLE_COLUMNS,
    fields: ROLE_FIELDS,
  }),
  get: getRow('/api/v1/roles/{id}', 2, ADMIN, {
    help: { id: 'role id' },
    command: ['roles', 'get'],
    summary: 'Show one role and its default-visibility settings',
    examples: ['crmctl roles get 2', 'crmctl roles get 2 --json'],
    columns: [...ROLE_COLUMNS.filter((c) => c !== 'level'), 'settings'],
    fields: [...ROLE_FIELDS.filter((c) => c !== 'level'), 'settings'],
    // The settings come in additional_data; the hand-written command shows them with the role.
    handWritten: true,
  }),
  create: createRow('/api/v1/roles', 10, ADMIN, () => z.object({ name: z.string().check(z.trim()).check(z.minLength(1)), parent_role_id: z.optional(id()) }), {
    prompts: { parent_role_id: { from: 'roles.list' } },
    command: ['roles', 'create'],
    summary: 'Create a role, at the top of the hierarchy or under a parent role',
    examples: ['crmctl roles create --name "EMEA sales" --parent-role-id 2'],
    columns: ['id'],
    help: { name: 'role name', parent_role_id: 'an existing role; omit for a top-level role' },
  }),
  update: updateRow('PUT', '/api/v1/roles/{id}', 10, ADMIN, {
    prompts: { id: { from: 'roles.list' }, parent_role_id: { from: 'roles.list' } },
    command: ['roles', 'update'],
    summary: 'Rename a role or move it under another parent (--unset parent_role_id makes it top-level)',
    examples: ['crmctl roles update 4 --name "EMEA & APAC sales"', 'crmctl roles update 4 --parent-role-id 1'],
    columns: ['id'],
    help: { id: 'role id', parent_role_id: 'an existing role other than this one and its sub-roles' },
  }, {
    body: () => z
      .object({ name: z.optional(z.string().check(z.trim()).check(z.minLength(1))), parent_role_id: z.optional(z.nullable(id())) }).check(z.superRefine((b, ctx) => {
        if (b.name === undefined && b.parent_role_id === undefined) {
          ctx.addIssue({ code: 'custom', path: ['name'], message: 'give --name or --parent-role-id (or --unset parent_role_id)' });
        }
      })),
  }),
  delete: deleteRow('/api/v1/roles/{id}', 6, ADMIN, {
    help: { id: 'role id' }, prompts: { id: { from: 'roles.list' } }, command: ['roles', 'delete'], summary: 'Delete a role (its users move to the default role)', examples: ['crmctl roles delete 4 --yes'], columns: ['id'],
  }),
  assignmentsList: listRow('/api/v1/roles/{id}/assignments', 10, ADMIN, 'offset', offsetPage, {
    help: { id: 'role id' },
    command: ['roles', 'assignments', 'list'],
    summary: 'List the users assigned to a role',
    examples: ['crmctl roles assignments list 2', 'crmctl roles assignments list 2 --all --output tsv'],
    columns: ['user_id', 'role_id', 'name', 'parent_role_id', 'active_flag', 'type'],
    fields: ASSIGNMENT_FIELDS,
  }),
  assignmentsAdd: createRow('/api/v1/roles/{id}/assignments', 10, ADMIN, () => z.object({ user_id: id() }), {
    prompts: { id: { from: 'roles.list' }, user_id: { from: 'users.list' } },
    command: ['roles', 'assignments', 'add'],
    summary: 'Assign a user to a role (a user has one role; this moves them)',
    examples: ['crmctl roles assignments add 3 --user-id 2'],
    columns: ['user_id', 'role_id'],
    help: { id: 'role id', user_id: 'an existing user of the company' },
  }),
  assignmentsRemove: deleteRow('/api/v1/roles/{id}/assignments', 6, ADMIN, {
    prompts: { id: { from: 'roles.list' }, user_id: { from: 'users.list' } },
    command: ['roles', 'assignments', 'remove'],
    summary: 'Remove a user from a role (the user moves to the default role)',
    examples: ['crmctl roles assignments remove 3 --user-id 2 --yes'],
    columns: ['id'],
    help: { id: 'role id', user_id: 'a user currently assigned to this role' },
  }, { body: () => z.object({ user_id: id() }) }),
  settingsList: getRow('/api/v1/roles/{id}/settings', 20, ADMIN, {
    help: { id: 'role id' },
    command: ['roles', 'settings', 'list'],
    summary: 'Show a role\'s default visibility per item type (access levels only for the default role)',
    examples: ['crmctl roles settings list 2', 'crmctl roles settings list 1 --json'],
    fields: SETTING_FIELDS,
  }),
  settingsSet: createRow('/api/v1/roles/{id}/settings', 10, ADMIN, () => z.object({ setting_key: z.enum(VISIBILITY_SETTING_KEYS), value: visibility() }), {
    prompts: { id: { from: 'roles.list' } },
    command: ['roles', 'settings', 'set'],
    summary: 'Set (add or update) one default-visibility setting of a role',
    examples: ['crmctl roles settings set 2 --key deal_default_visibility --value 7'],
    flagNames: { setting_key: 'key' },
    help: { id: 'role id', setting_key: 'which item type\'s default visibility', value: VISIBILITY_HELP },
  }),
  pipelinesList: getRow('/api/v1/roles/{id}/pipelines', 20, ADMIN, {
    command: ['roles', 'pipelines', 'list'],
    summary: 'List the pipelines a role can see (or, with --hidden, cannot see)',
    examples: ['crmctl roles pipelines list 2', 'crmctl roles pipelines list 2 --hidden'],
    columns: ['visible', 'pipeline_ids'],
    fields: ['pipeline_ids', 'visible'],
    help: { id: 'role id', visible: 'true (default): visible pipelines; false: hidden ones' },
  }, { query: () => z.object({ visible: z.optional(z.boolean()) }) }),
  pipelinesUpdate: updateRow('PUT', '/api/v1/roles/{id}/pipelines', 10, ADMIN, {
    prompts: { id: { from: 'roles.list' } },
    command: ['roles', 'pipelines', 'update'],
    summary: 'Make pipelines visible (--add) or hidden (--remove) for a role',
    examples: ['crmctl roles pipelines update 2 --add 1,2 --remove 3'],
    columns: ['visible', 'pipeline_ids'],
    flagNames: { 'visible_pipeline_ids.add': 'add', 'visible_pipeline_ids.remove': 'remove' },
    help: { id: 'role id', 'visible_pipeline_ids.add': 'pipeline ids to make visible', 'visible_pipeline_ids.remove': 'pipeline ids to hide' },
  }, {
    body: () => z
      .object({ visible_pipeline_ids: z.object({ add: z.optional(pipelineIds()), remove: z.optional(pipelineIds()) }) }).check(z.superRefine((b, ctx) => {
        const add = b.visible_pipeline_ids.add ?? [];
        const remove = b.visible_pipeline_ids.remove ?? [];
        if (add.length === 0 && remove.length === 0) {
          ctx.addIssue({ code: 'custom', path: ['visible_pipeline_ids', 'add'], message: 'give at least one pipeline id to --add or --remove' });
        }
        const both = add.filter((p) => remove.includes(p));
        if (both.length) {
          ctx.addIssue({ code: 'custom', path: ['visible_pipeline_ids', 'remove'], message: `a pipeline cannot be both added and removed: ${both.join(', ')}` });
        }
      })),
  }),
} satisfies OperationTable);
