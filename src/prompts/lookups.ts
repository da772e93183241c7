import { defineOperations, type Operation } from '../api/operation.js';

/**
 * Lists that prompts read to offer choices but that no area of the interface covers (users,
 * organizations, deals, pipelines, project boards, currencies). Method, path, cost and scopes are the
 * vendor's (index-v1/v2). They never become commands; a service (or sandbox) that does not serve one
 * answers 404 and the prompt falls back to typing the id.
 */
export const lookupOperations: Operation[] = defineOperations([
  {
    id: 'users.list',
    method: 'GET',
    path: '/api/v1/users',
    cost: 20,
    scopes: ['users:read'],
    pagination: 'none',
    cli: { command: [], summary: 'Users of the company', examples: [] },
  },
  {
    id: 'organizations.list',
    method: 'GET',
    path: '/api/v2/organizations',
    cost: 10,
    scopes: ['contacts:read', 'contacts:full'],
    pagination: 'cursor',
    maxLimit: 500,
    cli: { command: [], summary: 'Organizations', examples: [] },
  },
  {
    id: 'deals.list',
    method: 'GET',
    path: '/api/v2/deals',
    cost: 10,
    scopes: ['deals:read', 'deals:full'],
    pagination: 'cursor',
    maxLimit: 500,
    cli: { command: [], summary: 'Deals', examples: [] },
  },
  {
    id: 'pipelines.list',
    method: 'GET',
    path: '/api/v2/pipelines',
    cost: 5,
    scopes: ['deals:read', 'deals:full', 'admin'],
    pagination: 'cursor',
    maxLimit: 500,
    cli: { command: [], summary: 'Pipelines', examples: [] },
  },
  {
    id: 'projectBoards.list',
    method: 'GET',
    path: '/api/v1/projects/boards',
    cost: 20,
    scopes: ['projects:read', 'projects:full'],
    pagination: 'none',
    cli: { command: [], summary: 'Project boards', examples: [] },
  },
  {
    id: 'currencies.list',
    method: 'GET',
    path: '/api/v1/currencies',
    cost: 20,
    scopes: ['base'],
    pagination: 'none',
    cli: { command: [], summary: 'Currencies', examples: [] },
  },
]);
