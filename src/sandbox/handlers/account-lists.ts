// Area module: the one-operation v1 lists — lead sources, lead fields (the lead's own fields plus the
// deal custom fields leads share), note fields and recents (what changed since a time, per item type).
import { v1UserRef } from './shared/user-ref.js';
import { noteMembers } from './notes/common.js';
import { ok } from '../http/envelope.js';
import { invalid } from '../http/errors.js';
import { offsetPage } from '../http/paginate.js';
import type { Rec } from '../store/collection.js';
import type { Note } from '../store/records.js';
import type { SandboxState } from '../store/state.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../types.js';
import { customFields } from '../engine/fields/store.js';
import { v1Field, v1Type } from '../engine/fields/v1.js';
import { parseTime, v1Time } from '../engine/time.js';
import { SEED_TIME } from '../seed/base.js';
import { v1Activity } from './activities/present.js';
import { v1Deal } from './deals/present.js';
import { v1Person } from './persons/present.js';
import { presentUser } from './users.js';
import { presentFilter } from './filters/index.js';

/** Where a lead can come from (the vendor's fixed list). */
const LEAD_SOURCES = ['Manually created', 'Deal', 'Web forms', 'Prospector', 'Leadbooster', 'Live chat', 'Import', 'Website visitors', 'Workflow automation', 'API'];

const LEAD_SYSTEM: Array<[string, string, string]> = [
  ['title', 'Title', 'varchar'], ['owner_id', 'Owner', 'user'], ['creator_id', 'Creator', 'user'], ['label_ids', 'Labels', 'set'],
  ['person_id', 'Person', 'people'], ['organization_id', 'Organization', 'org'], ['source_name', 'Source', 'varchar'],
  ['value', 'Value', 'monetary'], ['expected_close_date', 'Expected close date', 'date'], ['next_activity_id', 'Next activity', 'activity'],
  ['add_time', 'Lead created', 'date'], ['update_time', 'Update time', 'date'], ['visible_to', 'Visible to', 'visible_to'],
];

const NOTE_FIELDS: Array<[number, string, string, string]> = [
  [1, 'id', 'ID', 'int'], [2, 'content', 'Content', 'text'], [3, 'user_id', 'User', 'user'], [4, 'deal_id', 'Deal', 'deal'],
  [5, 'lead_id', 'Lead', 'lead'], [6, 'person_id', 'Person', 'people'], [7, 'org_id', 'Organization', 'org'], [8, 'project_id', 'Project', 'project'],
  [9, 'add_time', 'Add time', 'date'], [10, 'update_time', 'Update time', 'date'], [11, 'pinned_to_deal_flag', 'Pinned to deal', 'enum'],
  [12, 'pinned_to_person_flag', 'Pinned to person', 'enum'], [13, 'pinned_to_organization_flag', 'Pinned to organization', 'enum'],
  [14, 'pinned_to_lead_flag', 'Pinned to lead', 'enum'], [15, 'pinned_to_project_flag', 'Pinned to project', 'enum'],
];

function leadFields(req: SandboxRequest, ctx: HandlerContext) {
  const t = v1Time(SEED_TIME);
  const system = LEAD_SYSTEM.map(([key, name, type], i) => ({
    id: null, key, name, order_nr: i, field_type: v1Type(type), add_time: t, update_time: t, last_updated_by_user_id: null, created_by_user_id: null,
    active_flag: true, edit_flag: false, index_visible_flag: true, details_visible_flag: true, add_visible_flag: true, important_flag: false,
    bulk_edit_allowed: false, searchable_flag: key === 'title', filtering_allowed: true, sortable_flag: true, mandatory_flag: key === 'title',
    ...(key === 'label_ids' ? { options: ctx.state.leadLabels.all().map((l) => ({ id: l.id, label: l.name })) } : {}),
  }));
  const custom = customFields(ctx.state, 'deal').map((f, i) => ({ ...v1Field(f), order_nr: system.length + i }));
  const page = offsetPage([...system, ...custom], req.query);
  return ok(page.data, page.additional_data);
}

const pinnedOptions = [{ id: 0, label: 'Not pinned' }, { id: 1, label: 'Pinned' }];

const t1 = (v: unknown) => v1Time(typeof v === 'string' ? v : null);
const firstChar = (name: string) => name.slice(0, 1).toLowerCase();
const ownerObject = v1UserRef;

/**
 * The collections recents reports, by item name, with each record's v1 form. Deleted records are listed
 * where the v1 form shows the deletion (active_flag, active, deleted); files, filters and users are not.
 */
// biome-ignore lint/suspicious/noExplicitAny: each entry presents its own collection's record type; one signature for all of them
const RECENT_ITEMS: Record<string, { rows: (s: SandboxState) => Rec[]; v1: (s: SandboxState, r: any) => Record<string, unknown> }> = {
  activity: { rows: (s) => s.activities.allWithDeleted(), v1: v1Activity },
  activityType: { rows: (s) => s.activityTypes.allWithDeleted(), v1: (_s, t) => ({ id: t.id, name: t.name, icon_key: t.icon_key, color: t.color, order_nr: t.order_nr, key_string: t.key_string, active_flag: t.active_flag, is_custom_flag: Boolean(t.is_custom_flag), add_time: t1(t.add_time), update_time: t1(t.update_time) }) },
  deal: { rows: (s) => s.deals.allWithDeleted(), v1: v1Deal },
  file: { rows: (s) => s.files.all(), v1: (_s, f) => ({ ...f }) },
  filter: { rows: (s) => s.filters.all(), v1: (s, f) => { const { conditions: _c, ...rest } = presentFilter(s, f, false); return rest; } },
  note: { rows: (s) => s.notes.allWithDeleted(), v1: (_s, n) => ({ ...noteMembers(n as Note), add_time: t1(n.add_time), update_time: t1(n.update_time) }) },
  // Recents name a person's owner and organization by id (the v1 person record elsewhere nests them).
  person: { rows: (s) => s.persons.allWithDeleted(), v1: (s, p) => ({ ...v1Person(s, p), owner_id: p.owner_id, org_id: p.org_id }) },
  organization: { rows: (s) => s.organizations.allWithDeleted(), v1: (s, o) => ({
    id: o.id, company_id: s.company.id, owner_id: ownerObject(s, o.owner_id), name: o.name, active_flag: !o.is_deleted, picture_id: null, country_code: null, first_char: firstChar(o.name),
    add_time: t1(o.add_time), update_time: t1(o.update_time), visible_to: String(o.visible_to), label: o.label_ids?.[0] ?? null, label_ids: o.label_ids ?? [],
    owner_name: s.users.getAny(o.owner_id)?.name ?? null, cc_email: `${s.company.domain}+org${o.id}@pipedrivemail.com`, address: o.address?.value ?? null,
  }) },
  pipeline: { rows: (s) => s.pipelines.allWithDeleted(), v1: (_s, p) => ({ id: p.id, name: p.name, url_title: p.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), order_nr: p.order_nr, active: !p.is_deleted, deal_probability: p.is_deal_probability_enabled, add_time: t1(p.add_time), update_time: t1(p.update_time) }) },
  product: { rows: (s) => s.products.allWithDeleted(), v1: (s, p) => ({ id: p.id, name: p.name, code: p.code, description: p.description, unit: p.unit, tax: p.tax, category: p.category === null ? null : String(p.category), active_flag: !p.is_deleted, selectable: p.is_linkable, first_char: firstChar(p.name), visible_to: Number(p.visible_to), owner_id: p.owner_id, files_count: s.files.filter((f) => f.product_id === p.id).length, add_time: t1(p.add_time), update_time: t1(p.update_time), prices: p.prices.map((x: Record<string, unknown>) => ({ product_id: p.id, ...x })) }) },
  stage: { rows: (s) => s.stages.allWithDeleted(), v1: (_s, x) => ({ id: x.id, order_nr: x.order_nr, name: x.name, active_flag: !x.is_deleted, deal_probability: x.deal_probability, pipeline_id: x.pipeline_id, rotten_flag: x.is_deal_rot_enabled, rotten_days: x.days_to_rotten, add_time: t1(x.add_time), update_time: t1(x.update_time) }) },
  user: { rows: (s) => s.users.all(), v1: presentUser },
};

function recents(req: SandboxRequest, ctx: HandlerContext) {
  const since = req.query.str('since_timestamp');
  if (!since) throw invalid('since_timestamp', 'is required (YYYY-MM-DD HH:MM:SS)');
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(since) || Number.isNaN(parseTime(since))) throw invalid('since_timestamp', 'must be YYYY-MM-DD HH:MM:SS (UTC)');
  const items = req.query.list('items');
  for (const i of items ?? []) if (!(i in RECENT_ITEMS)) throw invalid('items', `${i} is not one of ${Object.keys(RECENT_ITEMS).join(', ')}`);
  const from = parseTime(since);
  const rows: Array<{ item: string; id: number | string; data: Record<string, unknown>; t: string }> = [];
  for (const [item, kind] of Object.entries(RECENT_ITEMS)) {
    if (items && !items.includes(item)) continue;
    // A deletion is a change: the service marks the record deleted (update time bumped, its deletion
    // flag set) and lists it here like any other change until it is purged.
    for (const r of kind.rows(ctx.state)) {
      const t = String(r.update_time ?? r.modified ?? r.add_time ?? '');
      const ms = parseTime(t);
      if (!Number.isNaN(ms) && ms >= from) rows.push({ item, id: r.id as number, data: kind.v1(ctx.state, r), t });
    }
  }
  // Oldest first; ties in one order every time, so that offsets within one second page stably.
  const order = Object.keys(RECENT_ITEMS);
  rows.sort((a, b) => parseTime(a.t) - parseTime(b.t) || order.indexOf(a.item) - order.indexOf(b.item) || Number(a.id) - Number(b.id));
  const page = offsetPage(rows.map(({ t: _t, ...x }) => x), req.query);
  return ok(page.data, { ...page.additional_data, since_timestamp: since, last_timestamp_on_page: v1Time(page.data.length ? rows[(req.query.int('start') ?? 0) + page.data.length - 1]!.t : null) });
}

export const accountListsArea: AreaModule = {
  name: 'account-lists',
  routes: [
    { method: 'GET', path: '/api/v1/leadSources', cost: 2, scopes: ['leads:read', 'leads:full'], handler: () => ok(LEAD_SOURCES.map((name) => ({ name }))) },
    { method: 'GET', path: '/api/v1/leadFields', cost: 20, scopes: ['leads:read', 'leads:full', 'admin'], handler: leadFields },
    { method: 'GET', path: '/api/v1/noteFields', cost: 20, scopes: ['deals:read', 'deals:full', 'contacts:read', 'contacts:full'], handler: () => ok(NOTE_FIELDS.map(([id, key, name, field_type]) => ({
      id, key, name, field_type: v1Type(field_type), active_flag: true, edit_flag: false, bulk_edit_allowed: false, mandatory_flag: key === 'content',
      ...(field_type === 'enum' ? { options: pinnedOptions } : {}),
    }))) },
    { method: 'GET', path: '/api/v1/recents', cost: 20, scopes: ['recents:read', 'search:read'], handler: recents },
  ],
};
