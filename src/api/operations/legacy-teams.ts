import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { flag01, id, pathId } from '../schemas.js';
import { USER_IDS } from './record-fields.js';
import { createRow, getRow, updateRow } from './rows.js';

// Legacy teams (the former /teams paths): reads need users:read, writes admin (the vendor's documents).
const READ = ['users:read'];
const WRITE = ['admin'];

export const TEAM_FIELDS = ['id', 'name', 'description', 'manager_id', 'users', 'active_flag', 'deleted_flag', 'add_time', 'created_by_user_id'];
const COLUMNS = ['id', 'name', 'manager_id', 'users', 'active_flag', 'deleted_flag'];
export const TEAM_ORDER = ['id', 'name', 'manager_id', 'active_flag'] as const;

const params = once(() => z.object({ id: pathId() }));
const userIds = once(() => z.array(id()));
const listQuery = once(() => z.object({ order_by: z.optional(z.enum(TEAM_ORDER)), skip_users: z.optional(flag01()) }));
const help = {
  order_by: 'sort field (default id)',
  skip_users: '1 leaves out the member user ids',
  users: 'member user ids (existing users)',
  manager_id: 'user id of the team manager',
  active_flag: '0 inactive, 1 active',
  deleted_flag: '1 marks the team deleted, 0 restores it',
};

/** Adding members to a team or removing them: one row but for the method and its words. */
function membersRow<M extends 'POST' | 'DELETE'>(method: M, verb: 'add' | 'remove', cli: { summary: string; examples: string[]; confirm?: true }, usersHelp: string) {
  return {
    method, path: '/api/v1/legacyTeams/{id}/users', cost: 10, scopes: WRITE, pagination: 'none' as const, params: params(), body: () => z.object({ users: userIds().check(z.minLength(1)) }),
    cli: { prompts: { id: { from: 'legacyTeams.list' }, users: { from: 'users.list' } }, command: ['legacy-teams', 'users', verb], ...cli, columns: ['user_id'], help: { id: 'team id', users: usersHelp }, wrapValues: 'user_id' },
  };
}

export const legacyTeamOps = defineTable('legacyTeams', {
  list: getRow('/api/v1/legacyTeams', 20, READ, {
    command: ['legacy-teams', 'list'],
    summary: 'List all teams',
    examples: ['crmctl legacy-teams list --order-by name', 'crmctl legacy-teams list --skip-users 1 --output tsv'],
    columns: COLUMNS,
    fields: TEAM_FIELDS,
    help,
  }, { query: () => listQuery() }),
  get: getRow('/api/v1/legacyTeams/{id}', 2, READ, {
    command: ['legacy-teams', 'get'], summary: 'Show one team', examples: ['crmctl legacy-teams get 1', 'crmctl legacy-teams get 1 --skip-users 1 --json'], columns: TEAM_FIELDS, fields: TEAM_FIELDS, help: { ...help, id: 'team id' },
  }, { query: () => z.object({ skip_users: z.optional(flag01()) }) }),
  users: getRow('/api/v1/legacyTeams/{id}/users', 20, READ, {
    help: { id: 'team id' },
    command: ['legacy-teams', 'users', 'list'],
    summary: 'List the user ids of a team\'s members',
    examples: ['crmctl legacy-teams users list 1'],
    ...USER_IDS,
  }),
  ofUser: getRow('/api/v1/legacyTeams/user/{id}', 20, READ, {
    command: ['legacy-teams', 'of-user'],
    summary: 'List the teams a user is a member of (the argument is a user id)',
    examples: ['crmctl legacy-teams of-user 2 --order-by name'],
    columns: COLUMNS,
    fields: TEAM_FIELDS,
    help: { ...help, id: 'user id (a member of the teams listed)' },
  }, { query: () => listQuery() }),
  create: createRow('/api/v1/legacyTeams', 10, WRITE, () => z.object({ name: z.string().check(z.trim()).check(z.minLength(1)), manager_id: id(), description: z.optional(z.string()), users: z.optional(userIds()) }), {
    prompts: { manager_id: { from: 'users.list' }, users: { from: 'users.list' } },
    command: ['legacy-teams', 'create'],
    summary: 'Create a team with a manager and, optionally, members',
    examples: ['crmctl legacy-teams create --name Closers --manager-id 1 --users 2,3 --description "Berlin office"'],
    columns: TEAM_FIELDS,
    fields: TEAM_FIELDS,
    help,
  }),
  update: updateRow('PUT', '/api/v1/legacyTeams/{id}', 10, WRITE, {
    prompts: { id: { from: 'legacyTeams.list' }, manager_id: { from: 'users.list' }, users: { from: 'users.list' } },
    command: ['legacy-teams', 'update'],
    summary: 'Change a team: only the fields you give change (--users replaces the member list)',
    examples: ['crmctl legacy-teams update 1 --manager-id 3', 'crmctl legacy-teams update 1 --active-flag 0', 'crmctl legacy-teams update 1 --deleted-flag 1'],
    columns: TEAM_FIELDS,
    fields: TEAM_FIELDS,
    help: { ...help, id: 'team id' },
  }, {
    body: () => z.object({
      name: z.optional(z.string().check(z.trim()).check(z.minLength(1))),
      description: z.optional(z.string()),
      manager_id: z.optional(id()),
      users: z.optional(userIds()),
      active_flag: z.optional(flag01()),
      deleted_flag: z.optional(flag01()),
    }),
  }),
  addUsers: membersRow('POST', 'add', { summary: 'Add users to a team', examples: ['crmctl legacy-teams users add 1 --users 2,3'] }, 'user ids to add (existing users)'),
  removeUsers: membersRow('DELETE', 'remove', { summary: 'Remove users from a team', examples: ['crmctl legacy-teams users remove 1 --users 3 --yes'], confirm: true }, 'user ids to remove (members of the team)'),
} satisfies OperationTable);
