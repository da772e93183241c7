import type { Reader } from '../api/entry-types.js';
import { operationById } from '../api/operations/index.js';
import { readAll } from '../entry/prepare.js';

/**
 * The account's shape as MCP resources: what an assistant needs to turn names into ids (stages,
 * users, activity types, custom fields and their options), read once instead of paging lists
 * through tools. Each is read through the one entry (src/entry/prepare.ts), so the cost governor and
 * the login's scopes apply as for any command.
 */

export interface AccountResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: 'application/json';
}

/** Item types with a custom-field list, and the operation that lists their fields. */
export const FIELD_LISTS: Record<string, string> = {
  deal: 'dealFields.list',
  person: 'personFields.list',
  organization: 'organizationFields.list',
  product: 'productFields.list',
  activity: 'activityFields.list',
  lead: 'leadFields.list',
  note: 'noteFields.list',
  project: 'projectFields.list',
};

export const RESOURCE_PREFIX = 'crmctl://account/';

const res = (path: string, title: string, description: string): AccountResource => ({ uri: `${RESOURCE_PREFIX}${path}`, name: path, title, description, mimeType: 'application/json' });

export function accountResources(): AccountResource[] {
  return [
    res('pipelines', 'Pipelines and their stages', 'Every pipeline with its stages in order: the ids deals take as pipeline_id and stage_id.'),
    res('users', 'Users', 'The account\'s users (id, name, email, active, admin): the ids owner_id and user_id take.'),
    res('activity-types', 'Activity types', 'Activity types: the key_string an activity takes as type (call, meeting, ...).'),
    ...Object.keys(FIELD_LISTS).map((type) => res(`fields/${type}`, `${type} fields`, `Fields of ${type === 'activity' ? 'activitie' : type}s: key, name, type, custom or not, and the options (id, label) of option fields. Custom fields are set by key.`)),
  ];
}

async function all(reader: Reader, opId: string, query: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
  const op = operationById(opId);
  if (!op) throw new Error(`internal: no operation ${opId}`);
  const out: Record<string, unknown>[] = [];
  for await (const r of readAll(reader, op, { query }, { all: true })) out.push(r as Record<string, unknown>);
  return out;
}

/** One field, whatever form its list has (v2: field_code/field_name; v1: key/name). */
export interface AccountField {
  key: string;
  name: string;
  type: string;
  custom: boolean;
  options?: Array<{ id: unknown; label: unknown }>;
}

export async function fieldsOf(reader: Reader, itemType: string): Promise<AccountField[]> {
  const opId = FIELD_LISTS[itemType];
  if (!opId) return [];
  return (await all(reader, opId)).map((f) => {
    const key = String(f.field_code ?? f.key);
    const options = Array.isArray(f.options) && f.options.length ? (f.options as Array<Record<string, unknown>>).map((o) => ({ id: o.id, label: o.label })) : undefined;
    // v1 lists have no is_custom_field: their custom keys are 40-hex hashes.
    const custom = typeof f.is_custom_field === 'boolean' ? f.is_custom_field : /^[0-9a-f]{40}$/.test(key);
    return { key, name: String(f.field_name ?? f.name), type: String(f.field_type), custom, ...(options ? { options } : {}) };
  });
}

/** An account admin: global admin access (the v1 user record has no is_admin of its own). */
function isAdmin(u: Record<string, unknown>): boolean {
  if (u.is_admin === true || u.is_admin === 1) return true;
  return Array.isArray(u.access) && u.access.some((a) => a && typeof a === 'object' && (a as { app?: unknown }).app === 'global' && (a as { admin?: unknown }).admin === true);
}

/** The resource's content as JSON, or undefined for a URI this server does not have. */
export async function readResource(reader: Reader, uri: string): Promise<unknown> {
  if (!uri.startsWith(RESOURCE_PREFIX)) return undefined;
  const path = uri.slice(RESOURCE_PREFIX.length);
  if (path === 'pipelines') {
    const [pipelines, stages] = await Promise.all([all(reader, 'pipelines.list'), all(reader, 'stages.list')]);
    return pipelines.map((p) => ({
      id: p.id,
      name: p.name,
      stages: stages
        .filter((s) => s.pipeline_id === p.id)
        .sort((a, b) => Number(a.order_nr) - Number(b.order_nr))
        .map((s) => ({ id: s.id, name: s.name, order_nr: s.order_nr, deal_probability: s.deal_probability, days_to_rotten: s.is_deal_rot_enabled ? s.days_to_rotten : null })),
    }));
  }
  if (path === 'users') return (await all(reader, 'users.list')).map((u) => ({ id: u.id, name: u.name, email: u.email, active: u.active_flag, admin: isAdmin(u) }));
  if (path === 'activity-types') return (await all(reader, 'activityTypes.list')).map((t) => ({ id: t.id, key_string: t.key_string, name: t.name, active: t.active_flag }));
  const field = /^fields\/([a-z]+)$/.exec(path);
  if (field && FIELD_LISTS[field[1]!]) return fieldsOf(reader, field[1]!);
  return undefined;
}
