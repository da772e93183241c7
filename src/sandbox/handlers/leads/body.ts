// Validation of lead create/update bodies (interface, Lead table; the vendor's documents).
// Every rule failure is a 400 naming the field and the rule.
import { invalid } from '../../http/errors.js';
import {
  has, objectBody, optBool, optDate, optInt, optString, rejectUnknown, reqString, UUID, type Body,
} from '../../http/validate.js';
import type { Lead } from '../../store/records.js';
import { fieldByCode } from '../../engine/fields/store.js';
import { isCustomKey, parseCustomFields } from '../../engine/fields/values.js';
import type { SandboxState } from '../../store/state.js';
import { allowedVisibility } from '../../engine/access.js';

const COMMON = ['title', 'owner_id', 'label_ids', 'person_id', 'organization_id', 'value', 'expected_close_date',
  'visible_to', 'was_seen', 'origin_id', 'channel', 'channel_id'] as const;
const PATCH_ONLY = ['is_archived', 'archive_reason'] as const;

/** Fields of a lead that a create or update sets. Only keys present in the body appear. */
export type LeadChanges = Partial<Lead>;

export function parseLeadBody(state: SandboxState, raw: unknown, mode: 'create' | 'update'): LeadChanges {
  const b = objectBody(raw);
  // Leads carry the deal custom fields as top-level keys (interface, Lead).
  const custom = (k: string) => isCustomKey(state, 'deal', k);
  rejectUnknown(b, mode === 'create' ? COMMON : [...COMMON, ...PATCH_ONLY], custom);

  const out: LeadChanges = {};
  if (mode === 'create') out.title = reqString(b, 'title', { max: 255 });
  else if (has(b, 'title')) out.title = optString(b, 'title', { max: 255 }) as string;

  const owner = optInt(b, 'owner_id', { min: 1 });
  if (owner !== undefined && owner !== null) {
    const u = state.users.get(owner);
    if (!u?.active_flag) throw invalid('owner_id', `user ${owner} does not exist or is not active`);
    out.owner_id = owner;
  }

  const person = optInt(b, 'person_id', { nullable: true, min: 1 });
  if (person !== undefined) {
    if (person !== null && !state.persons.get(person)) throw invalid('person_id', `person ${person} does not exist`);
    out.person_id = person;
  }
  const org = optInt(b, 'organization_id', { nullable: true, min: 1 });
  if (org !== undefined) {
    if (org !== null && !state.organizations.get(org)) throw invalid('organization_id', `organization ${org} does not exist`);
    out.organization_id = org;
  }

  if (has(b, 'label_ids')) {
    const v = b.label_ids;
    if (!Array.isArray(v)) throw invalid('label_ids', 'must be an array of lead label ids');
    for (const id of v) {
      if (typeof id !== 'string' || !UUID.test(id)) throw invalid('label_ids', `${JSON.stringify(id)} is not a UUID`);
      if (!state.leadLabels.get(id)) throw invalid('label_ids', `lead label ${id} does not exist`);
    }
    out.label_ids = [...new Set(v as string[])];
  }

  if (has(b, 'value')) out.value = parseValue(state, b.value);

  const ecd = optDate(b, 'expected_close_date', { nullable: true });
  if (ecd !== undefined) out.expected_close_date = ecd;

  if (has(b, 'visible_to')) {
    const v = b.visible_to;
    const s = typeof v === 'number' && Number.isInteger(v) ? String(v) : v;
    const allowed = allowedVisibility(state);
    if (typeof s !== 'string' || !allowed.includes(s)) throw invalid('visible_to', `must be one of ${allowed.join(', ')}`);
    out.visible_to = s;
  }

  const seen = optBool(b, 'was_seen');
  if (seen !== undefined) out.was_seen = seen;
  const originId = optString(b, 'origin_id', { nullable: true });
  if (originId !== undefined) out.origin_id = originId;
  const channelId = optString(b, 'channel_id', { nullable: true });
  if (channelId !== undefined) out.channel_id = channelId;

  const channel = optInt(b, 'channel', { nullable: true });
  if (channel !== undefined) {
    if (channel !== null) {
      const opts = fieldByCode(state, 'deal', 'channel')?.options ?? [];
      if (!opts.some((o) => o.id === channel)) {
        throw invalid('channel', `must be one of the configured marketing channels (${opts.map((o) => o.id).join(', ') || 'none configured'})`);
      }
    }
    out.channel = channel;
  }

  if (mode === 'update') {
    const archived = optBool(b, 'is_archived');
    if (archived !== undefined) out.is_archived = archived;
    const reason = optString(b, 'archive_reason', { nullable: true, max: 255 });
    if (reason !== undefined) out.archive_reason = reason;
  }

  Object.assign(out, parseCustomFields(state, 'deal', Object.fromEntries(Object.entries(b).filter(([k]) => custom(k))), ''));
  return out;
}

function parseValue(state: SandboxState, v: unknown): Lead['value'] {
  if (v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalid('value', 'must be an object with amount and currency, or null');
  const o = v as Body;
  rejectUnknown(o, ['amount', 'currency']);
  if (!has(o, 'amount') || o.amount === null) throw invalid('value.amount', 'is required');
  if (typeof o.amount !== 'number' || !Number.isFinite(o.amount)) throw invalid('value.amount', 'must be a number');
  if (!has(o, 'currency') || o.currency === null) throw invalid('value.currency', 'is required');
  if (typeof o.currency !== 'string') throw invalid('value.currency', 'must be a string');
  if (!state.currencies.find((c) => c.code === o.currency && c.active_flag)) {
    throw invalid('value.currency', `${o.currency} is not an active currency of the company`);
  }
  return { amount: o.amount, currency: o.currency };
}
