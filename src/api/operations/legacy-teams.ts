import { z } from 'zod';
import { defineTable, type OperationTable } from '../operation.js';
import { flag01, id, pathId } from '../schemas.js';

// Legacy teams (the former /teams paths): reads need users:read, writes admin (the vendor's documents).
const READ = ['users:read'];
const WRITE = ['admin'];

export const TEAM_FIELDS = ['id', 'name', 'description', 'manager_id', 'users', 'active_flag', 'deleted_flag', 'add_time', 'created_by_user_id'];
const COLUMNS = ['id', 'name', 'manager_id', 'users', 'active_flag', 'deleted_flag'];
export const TEAM_ORDER = ['id', 'name', 'manager_id', 'active_flag'] as const;

const params = z.object({ id: pathId });
const userIds = z.array(id);
const listQuery = z.object({ order_by: z.enum(TEAM_ORDER).optional(), skip_users: flag01.optional() });
const help = {
  order_by: 'sort field (default id)',
  skip_users: '1 leaves out the member user ids',
  users: 'member user ids (existing users)',
  manager_id: 'user id of the team manager',
  active_flag: '0 inactive, 1 active',
  deleted_flag: '1 marks the team deleted, 0 restores it',
};

export const legacyTeamOps = defineTable('legacyTeams', {
  list: {
    method: 'GET',
    path: '/api/v1/legacyTeams',
    cost: 20,
    scopes: READ,
    pagination: 'none',
    query: () => listQuery,
    cli: {
      command: ['legacy-teams', 'list'],
      summary: 'List all teams',
      examples: ['crmctl legacy-teams list --order-by name', 'crmctl legacy-teams list --skip-users 1 --output tsv'],
      columns: COLUMNS,
      fields: TEAM_FIELDS,
      help,
    },
  },
  get: {
    method: 'GET',
    path: '/api/v1/legacyTeams/{id}',
    cost: 2,
    scopes: READ,
    pagination: 'none',
    params,
    query: () => z.object({ skip_users: flag01.optional() }),
    cli: {
       command: ['legacy-teams', 'get'], summary: 'Show one team', examples: ['crmctl legacy-teams get 1', 'crmctl legacy-teams get 1 --skip-users 1 --json'], columns: TEAM_FIELDS, fields: TEAM_FIELDS, help: { ...help, id: 'team id' } },
  },
  users: {
    method: 'GET',
    path: '/api/v1/legacyTeams/{id}/users',
    cost: 20,
    scopes: READ,
    pagination: 'none',
    params,
    cli: {
      help: { id: 'team id' },
      command: ['legacy-teams', 'users', 'list'],
      summary: 'List the user ids of a team\'s members',
      examples: ['crmctl legacy-teams users list 1'],
      columns: ['user_id'],
      fields: ['user_id'],
      wrapValues: 'user_id',
    },
  },
  ofUser: {
    method: 'GET',
    path: '/api/v1/legacyTeams/user/{id}',
    cost: 20,
    scopes: READ,
    pagination: 'none',
    params,
    query: () => listQuery,
    cli: {
      command: ['legacy-teams', 'of-user'],
      summary: 'List the teams a user is a member of (the argument is a user id)',
      examples: ['crmctl legacy-teams of-user 2 --order-by name'],
      columns: COLUMNS,
      fields: TEAM_FIELDS,
      help: { ...help, id: 'user id (a member of the teams listed)' },
    },
  },
  create: {
    method: 'POST',
    path: '/api/v1/legacyTeams',
    cost: 10,
    scopes: WRITE,
    pagination: 'none',
    body: () => z.object({ name: z.string().trim().min(1), manager_id: id, description: z.string().optional(), users: userIds.optional() }),
    cli: {
      prompts: { manager_id: { from: 'users.list' }, users: { from: 'users.list' } },
      command: ['legacy-teams', 'create'],
      summary: 'Create a team with a manager and, optionally, members',
      examples: ['crmctl legacy-teams create --name Closers --manager-id 1 --users 2,3 --description "Berlin office"'],
      columns: TEAM_FIELDS,
      fields: TEAM_FIELDS,
      help,
    },
  },
  update: {
    method: 'PUT',
    path: '/api/v1/legacyTeams/{id}',
    cost: 10,
    scopes: WRITE,
    pagination: 'none',
    params,
    body: () => z.object({
      name: z.string().trim().min(1).optional(),
      description: z.string().optional(),
      manager_id: id.optional(),
      users: userIds.optional(),
      active_flag: flag01.optional(),
      deleted_flag: flag01.optional(),
    }),
    cli: {
      prompts: { id: { from: 'legacyTeams.list' }, manager_id: { from: 'users.list' }, users: { from: 'users.list' } },
      command: ['legacy-teams', 'update'],
      summary: 'Change a team: only the fields you give change (--users replaces the member list)',
      examples: ['crmctl legacy-teams update 1 --manager-id 3', 'crmctl legacy-teams update 1 --active-flag 0', 'crmctl legacy-teams update 1 --deleted-flag 1'],
      columns: TEAM_FIELDS,
      fields: TEAM_FIELDS,
      help: { ...help, id: 'team id' },
    },
  },
  addUsers: {
    method: 'POST',
    path: '/api/v1/legacyTeams/{id}/users',
    cost: 10,
    scopes: WRITE,
    pagination: 'none',
    params,
    body: () => z.object({ users: userIds.min(1) }),
    cli: {
      prompts: { id: { from: 'legacyTeams.list' }, users: { from: 'users.list' } },
      command: ['legacy-teams', 'users', 'add'],
      summary: 'Add users to a team',
      examples: ['crmctl legacy-teams users add 1 --users 2,3'],
      columns: ['user_id'],
      help: { id: 'team id', users: 'user ids to add (existing users)' },
      wrapValues: 'user_id',
    },
  },
  removeUsers: {
    method: 'DELETE',
    path: '/api/v1/legacyTeams/{id}/users',
    cost: 10,
    scopes: WRITE,
    pagination: 'none',
    params,
    body: () => z.object({ users: userIds.min(1) }),
    cli: {
      prompts: { id: { from: 'legacyTeams.list' }, users: { from: 'users.list' } },
      command: ['legacy-teams', 'users', 'remove'],
      summary: 'Remove users from a team',
      examples: ['crmctl legacy-teams users remove 1 --users 3 --yes'],
      confirm: true,
      columns: ['user_id'],
      help: { id: 'team id', users: 'user ids to remove (members of the team)' },
      wrapValues: 'user_id',
    },
  },
} satisfies OperationTable);
