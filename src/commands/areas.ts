import type { AreaModule } from '../core/command.js';

export type AreaGroup = 'Sales work' | 'Admin and configuration' | 'Automation' | 'Account health' | 'Setup';

export interface AreaEntry {
  name: string;
  summary: string;
  aliases?: string[];
  group: AreaGroup;
  /** Loaded only when the command line names this area (or docs are generated). */
  load(): Promise<AreaModule>;
}

/**
 * Every top-level command, in help order. Only names and summaries live here so that
 * `crmctl --help` loads nothing else; each area's commands are imported on demand.
 */
export const AREAS: AreaEntry[] = [
  { name: 'leads', summary: 'Leads: list, create, update, archive, search, convert to deals', group: 'Sales work', load: () => import('./leads/index.js').then((m) => m.area) },
  { name: 'lead-labels', aliases: ['labels'], summary: 'Lead labels: list, create, update, delete', group: 'Sales work', load: () => import('./lead-labels/index.js').then((m) => m.area) },
  { name: 'deals', summary: 'Deals: CRUD, stages, products, discounts, followers, participants, merge, flow', group: 'Sales work', load: () => import('./deals/index.js').then((m) => m.area) },
  { name: 'organizations', aliases: ['orgs'], summary: 'Organizations: CRUD, search, followers, merge, flow', group: 'Sales work', load: () => import('./organizations/index.js').then((m) => m.area) },
  { name: 'activities', summary: 'Activities: calls, meetings, tasks with due dates, participants and attendees', group: 'Sales work', load: () => import('./activities/index.js').then((m) => m.area) },
  { name: 'products', summary: 'Products: CRUD, prices, variations, images, followers', group: 'Sales work', load: () => import('./products/index.js').then((m) => m.area) },
  { name: 'persons', summary: 'Persons: list, search, followers, flow, files, deals, activities', group: 'Sales work', load: () => import('./persons/index.js').then((m) => m.area) },
  { name: 'notes', summary: 'Notes and their comments on leads, deals, persons, organizations, projects', group: 'Sales work', load: () => import('./notes/index.js').then((m) => m.area) },
  { name: 'projects', summary: 'Projects: list, create, update, archive, search, plan, tasks', group: 'Sales work', load: () => import('./projects/index.js').then((m) => m.area) },
  { name: 'phases', aliases: ['project-phases'], summary: 'Project phases of a board (beta)', group: 'Sales work', load: () => import('./phases/index.js').then((m) => m.area) },
  { name: 'mailbox', aliases: ['mail'], summary: 'Mail threads and messages: list by folder, link, archive, delete', group: 'Sales work', load: () => import('./mailbox/index.js').then((m) => m.area) },
  { name: 'subscriptions', summary: 'Recurring and installment subscriptions of deals (retired from the live service)', group: 'Sales work', load: () => import('./subscriptions/index.js').then((m) => m.area) },
  { name: 'deal-installments', aliases: ['installments'], summary: 'Deal installments: list, add, update, delete', group: 'Sales work', load: () => import('./deal-installments/index.js').then((m) => m.area) },
  { name: 'search', aliases: ['item-search'], summary: 'Search across deals, persons, organizations, leads, products and files', group: 'Sales work', load: () => import('./search/index.js').then((m) => m.area) },
  { name: 'recents', summary: 'What changed since a time, across item types', group: 'Sales work', load: () => import('./recents/index.js').then((m) => m.area) },
  { name: 'pipelines', summary: 'Pipelines: CRUD, conversion and movement statistics', group: 'Admin and configuration', load: () => import('./pipelines/index.js').then((m) => m.area) },
  { name: 'stages', summary: 'Stages of pipelines: CRUD', group: 'Admin and configuration', load: () => import('./stages/index.js').then((m) => m.area) },
  { name: 'users', summary: 'Users: list, find, me, add, activate, followers, permissions, roles', group: 'Admin and configuration', load: () => import('./users/index.js').then((m) => m.area) },
  { name: 'filters', summary: 'Saved filters (at most 16 conditions) and their helpers', group: 'Admin and configuration', load: () => import('./filters/index.js').then((m) => m.area) },
  { name: 'deal-fields', summary: 'Deal custom fields and their options (leads use them too)', group: 'Admin and configuration', load: () => import('./deal-fields/index.js').then((m) => m.area) },
  { name: 'person-fields', summary: 'Person custom fields and their options', group: 'Admin and configuration', load: () => import('./person-fields/index.js').then((m) => m.area) },
  { name: 'product-fields', summary: 'Product custom fields and their options', group: 'Admin and configuration', load: () => import('./product-fields/index.js').then((m) => m.area) },
  { name: 'project-fields', summary: 'Project custom fields and their options (beta)', group: 'Admin and configuration', load: () => import('./project-fields/index.js').then((m) => m.area) },
  { name: 'lead-fields', summary: 'Fields of leads (read-only)', group: 'Admin and configuration', load: () => import('./lead-fields/index.js').then((m) => m.area) },
  { name: 'note-fields', summary: 'Fields of notes (read-only)', group: 'Admin and configuration', load: () => import('./note-fields/index.js').then((m) => m.area) },
  { name: 'lead-sources', summary: 'The fixed list of lead sources', group: 'Admin and configuration', load: () => import('./lead-sources/index.js').then((m) => m.area) },
  { name: 'currencies', summary: 'Currencies the company can use', group: 'Admin and configuration', load: () => import('./currencies/index.js').then((m) => m.area) },
  { name: 'files', summary: 'Files: upload from a path or stdin, download (streamed), list, rename, delete, Google Drive links', group: 'Sales work', load: () => import('./files/index.js').then((m) => m.area) },
  { name: 'call-logs', summary: 'Call logs and their audio recordings', group: 'Sales work', load: () => import('./call-logs/index.js').then((m) => m.area) },
  { name: 'tasks', summary: 'Project tasks: list, create, update, delete (v2, and v1 with --v1)', group: 'Sales work', load: () => import('./tasks/index.js').then((m) => m.area) },
  { name: 'project-templates', summary: 'Project templates (read-only)', group: 'Sales work', load: () => import('./project-templates/index.js').then((m) => m.area) },
  { name: 'boards', aliases: ['project-boards'], summary: 'Project boards', group: 'Sales work', load: () => import('./boards/index.js').then((m) => m.area) },
  { name: 'goals', summary: 'Goals: find, create, update, delete, results', group: 'Admin and configuration', load: () => import('./goals/index.js').then((m) => m.area) },
  { name: 'roles', summary: 'Roles: CRUD, assignments, visibility settings, pipelines', group: 'Admin and configuration', load: () => import('./roles/index.js').then((m) => m.area) },
  { name: 'permission-sets', summary: 'Permission sets and their assignments (read-only)', group: 'Admin and configuration', load: () => import('./permission-sets/index.js').then((m) => m.area) },
  { name: 'legacy-teams', aliases: ['teams'], summary: 'Legacy teams: CRUD and members', group: 'Admin and configuration', load: () => import('./legacy-teams/index.js').then((m) => m.area) },
  { name: 'activity-types', summary: 'Activity types: list, create, update, delete', group: 'Admin and configuration', load: () => import('./activity-types/index.js').then((m) => m.area) },
  { name: 'activity-fields', summary: 'Activity field metadata (read-only)', group: 'Admin and configuration', load: () => import('./activity-fields/index.js').then((m) => m.area) },
  { name: 'organization-fields', aliases: ['org-fields'], summary: 'Organization custom fields and their options', group: 'Admin and configuration', load: () => import('./organization-fields/index.js').then((m) => m.area) },
  { name: 'billing', summary: 'Add-ons of the company subscription (read-only)', group: 'Admin and configuration', load: () => import('./billing/index.js').then((m) => m.area) },
  { name: 'meetings', summary: 'Links between users and video call providers (for provider integrations)', group: 'Admin and configuration', load: () => import('./meetings/index.js').then((m) => m.area) },
  { name: 'webhooks', summary: 'Webhooks: list, create, delete, and listen locally', group: 'Admin and configuration', load: () => import('./webhooks/index.js').then((m) => m.area) },
  { name: 'api', summary: 'Call any endpoint: typed fields, --paginate, --include (gh api style)', group: 'Automation', load: () => import('./api/index.js').then((m) => m.area) },
  { name: 'changes', summary: 'What was added, updated or deleted since a time or the last run (NDJSON feed)', group: 'Automation', load: () => import('./changes/index.js').then((m) => m.area) },
  { name: 'export', summary: 'Export every record of a resource as ndjson, json or csv (resumable)', group: 'Automation', load: () => import('./export/index.js').then((m) => m.area) },
  { name: 'import', summary: 'Create records from ndjson, json or csv: validated, paced, resumable', group: 'Automation', load: () => import('./import/index.js').then((m) => m.area) },
  { name: 'pull', summary: "Write the account's configuration as files apply accepts (--sample: records too)", group: 'Automation', load: () => import('./pull/index.js').then((m) => m.area) },
  { name: 'plan', summary: 'Compare configuration files with the live account (exit 8: changes)', group: 'Automation', load: () => import('./plan/index.js').then((m) => m.area) },
  { name: 'apply', summary: 'Create or update records from fixture or configuration files (idempotent)', group: 'Automation', load: () => import('./apply/index.js').then((m) => m.area) },
  { name: 'backup', summary: 'Write the whole account into a directory: configuration, every record kind, files (resumable)', group: 'Automation', load: () => import('./backup/index.js').then((m) => m.area) },
  { name: 'restore', summary: 'Write a backup (crmctl backup) into this account: configuration, then records with every link kept (resumable)', group: 'Automation', load: () => import('./restore/index.js').then((m) => m.area) },
  { name: 'diff', summary: 'Compare a backup with this account (after a restore) or with another backup: per kind identical, changed, only in one (exit 8: different)', group: 'Automation', load: () => import('./diff/index.js').then((m) => m.area) },
  { name: 'mcp', summary: 'Serve the account as MCP tools for AI assistants (read-only unless allowed)', group: 'Automation', load: () => import('./mcp/index.js').then((m) => m.area) },
  { name: 'destroy', summary: 'Delete the records crmctl apply created, dependents first', group: 'Automation', load: () => import('./destroy/index.js').then((m) => m.area) },
  { name: 'runs', summary: 'The runs crmctl made (imports, exports, bulk updates, undos): list them, show one', group: 'Automation', load: () => import('./runs/index.js').then((m) => m.area) },
  { name: 'undo', summary: 'Take back what a run wrote: delete what it created, set back what it changed', group: 'Automation', load: () => import('./undo/index.js').then((m) => m.area) },
  { name: 'history', summary: 'What changed on a deal, person or organization, and which changes crmctl made (run, door)', group: 'Automation', load: () => import('./history/index.js').then((m) => m.area) },
  { name: 'commands', summary: 'Every command as JSON for scripts and agents: flags, operations, exit codes', group: 'Automation', load: () => import('./commands/index.js').then((m) => m.area) },
  { name: 'audit', summary: 'Check the data: duplicates, deals without a next step, stale deals, bad e-mails and phones (read-only)', group: 'Account health', load: () => import('./audit/index.js').then((m) => m.area) },
  { name: 'watch', summary: 'Run the audit and report only findings new since the last run (exit 8; --post to a chat webhook)', group: 'Account health', load: () => import('./watch/index.js').then((m) => m.area) },
  { name: 'analytics', summary: 'Pipeline analytics: funnel, forecast, velocity, aging, slippage, coverage, scorecard', group: 'Account health', load: () => import('./analytics/index.js').then((m) => m.area) },
  { name: 'digest', summary: 'The week\'s analytics and audit in one Markdown or HTML file (charts inline)', group: 'Account health', load: () => import('./digest/index.js').then((m) => m.area) },
  { name: 'dedupe', summary: 'Plan the merge of duplicate persons or organizations (--dry-run; merges come later)', group: 'Account health', load: () => import('./dedupe/index.js').then((m) => m.area) },
  { name: 'normalize', summary: 'Plan phone numbers in E.164 and e-mails in lower case (--dry-run; writes come later)', group: 'Account health', load: () => import('./normalize/index.js').then((m) => m.area) },
  { name: 'auth', summary: 'Log in with OAuth, manage profiles and tokens', group: 'Setup', load: () => import('./auth/index.js').then((m) => m.area) },
  { name: 'doctor', summary: 'Check the setup: config file, token expiry, clock, daily budget, API and auth server, scopes', group: 'Setup', load: () => import('./doctor/index.js').then((m) => m.area) },
  { name: 'budget', aliases: ['quota'], summary: 'The daily token budget left; exit 6 below a threshold (a CI gate)', group: 'Setup', load: () => import('./budget/index.js').then((m) => m.area) },
  { name: 'completion', summary: 'Print shell completion scripts (bash, zsh, fish)', group: 'Setup', load: () => import('./completion/index.js').then((m) => m.area) },
  { name: 'sandbox', summary: 'Run the local emulator of the service', group: 'Setup', load: () => import('./sandbox/index.js').then((m) => m.area) },
];

export function findArea(name: string): AreaEntry | undefined {
  return AREAS.find((a) => a.name === name || a.aliases?.includes(name));
}
