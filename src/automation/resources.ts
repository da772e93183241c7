import { pathParamNames, type Operation } from '../api/operation.js';
import { ALL_OPERATIONS } from '../api/operations/index.js';
import { fieldsOf } from '../input/fields.js';

/**
 * Resource names for `crmctl export` and `crmctl import`, derived from the operation tables so a new
 * area is exportable without touching this file. A resource is the command path without its verb:
 * `leads list` → leads, `mailbox threads list` → mailbox-threads, `roles assignments list` →
 * roles-assignments. NAMES fixes the few where that reads badly.
 */
const NAMES: Record<string, string> = {
  'leads.archived': 'archived-leads',
  'projects.archived': 'archived-projects',
  'dealFields.list': 'deal-fields',
  'persons.collection': 'persons-collection',
};
const ALIASES: Record<string, string[]> = {
  'mailbox-threads': ['mail-threads'],
  'legacy-teams': ['teams'],
  'organization-fields': ['org-fields'],
  'deal-installments': ['installments'],
  'lead-labels': ['labels'],
};
const LIST_VERBS = new Set(['list', 'find']);

export interface ExportResource {
  name: string;
  aliases: string[];
  op: Operation;
  /** Path params and required query fields: given with --param key=value. */
  required: string[];
}

export interface ImportResource {
  name: string;
  op: Operation;
}

function baseName(op: Operation): string {
  const words = op.cli.command.filter((w, i) => !(i === op.cli.command.length - 1 && LIST_VERBS.has(w)));
  return words.join('-');
}

/** Lists: GET operations that return many records (paged, or an array), not searches and not single gets. */
function isList(op: Operation): boolean {
  if (op.method !== 'GET') return false;
  const last = op.cli.command[op.cli.command.length - 1]!;
  if (/\.(search|get|getV1)$/.test(op.id) || last === 'get' || last === 'search') return false;
  return op.pagination !== 'none' || LIST_VERBS.has(last) || pathParamNames(op.path).length === 0;
}

let exportCache: ExportResource[] | undefined;

export function exportResources(): ExportResource[] {
  if (exportCache) return exportCache;
  const byName = new Map<string, ExportResource>();
  for (const op of ALL_OPERATIONS.filter(isList)) {
    const name = NAMES[op.id] ?? baseName(op);
    if (byName.has(name)) continue; // first row wins (v2 before v1 leftovers)
    const requiredQuery = fieldsOf(op.query, 'query').filter((f) => f.required).map((f) => f.key);
    byName.set(name, { name, aliases: ALIASES[name] ?? [], op, required: [...pathParamNames(op.path), ...requiredQuery] });
  }
  exportCache = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  return exportCache;
}

export function findExportResource(name: string): ExportResource | undefined {
  return exportResources().find((r) => r.name === name || r.aliases.includes(name));
}

/** Creates without path params: one record per input row. */
export function importResources(): ImportResource[] {
  const out = new Map<string, ImportResource>();
  for (const op of ALL_OPERATIONS) {
    if (op.method !== 'POST' || pathParamNames(op.path).length || !op.body) continue;
    const [area, verb] = [op.cli.command[0]!, op.cli.command[op.cli.command.length - 1]!];
    const name = verb === 'create' ? area : `${area}-${verb.replace(/^create-/, '')}`;
    if (!out.has(name)) out.set(name, { name, op });
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function findImportResource(name: string): ImportResource | undefined {
  const canonical = Object.entries(ALIASES).find(([, a]) => a.includes(name))?.[0] ?? name;
  return importResources().find((r) => r.name === canonical);
}

/** Fields every kind's records carry that no create takes. */
const ALWAYS_READ_ONLY = ['id', 'add_time', 'update_time', 'is_deleted', 'active_flag', 'creator_user_id', 'creator_id', 'last_update_user_id'];

/**
 * What an import of `name` skips (with one note) instead of refusing as unknown: the fields of the
 * kind's records (its export list's fields) that its create does not take.
 */
export function readOnlyFields(name: string): Set<string> {
  const create = findImportResource(name)?.op;
  const body = new Set(create ? fieldsOf(create.body, 'body').map((f) => f.key.split('.')[0]!) : []);
  const listed = findExportResource(name)?.op.cli.fields ?? [];
  return new Set([...ALWAYS_READ_ONLY, ...listed].filter((k) => !body.has(k)));
}
