// The organization resource: name, owner, address, labels, visibility and custom fields; counts of its
// deals (own and through its persons), activities, people, files, notes and followers on request.
import { invalid } from '../../http/errors.js';
import type { Deal, Organization } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import { recordsBy } from '../../engine/page-index.js';
import { defaultVisibility } from '../roles/store.js';
import { addressRule, fullAddress } from '../../engine/address.js';
import { fieldByCode } from '../../engine/fields/store.js';
import { presentCustomFields } from '../../engine/fields/values.js';
import { addFollower, followersOf } from '../../engine/followers.js';
import type { ResourceSpec } from '../../engine/resource.js';
import { r, REF, type Rule } from '../../engine/rules.js';
import { activityOrder, lazy, pickStats } from '../../engine/stats.js';
import { v2Time } from '../../engine/time.js';
import { searchText } from '../shared/search-text.js';
import { orgMessages } from '../shared/related.js';

export const ORG_READ = ['contacts:read', 'contacts:full'];
export const ORG_WRITE = ['contacts:full'];

export const ORG_INCLUDE = [
  'next_activity_id', 'last_activity_id', 'open_deals_count', 'related_open_deals_count', 'closed_deals_count', 'related_closed_deals_count',
  'email_messages_count', 'people_count', 'activities_count', 'done_activities_count', 'undone_activities_count', 'files_count', 'notes_count',
  'followers_count', 'won_deals_count', 'related_won_deals_count', 'lost_deals_count', 'related_lost_deals_count', 'smart_bcc_email',
] as const;


/** Organization labels are the options of the organization field `label_ids`. */
const orgLabels: Rule = r.custom((v, f, env) => {
  const ids = r.ids().parse(v, f, env) as number[];
  const known = new Set((fieldByCode(env.state, 'organization', 'label_ids')?.options ?? []).map((o) => o.id));
  const bad = ids.filter((id) => !known.has(id));
  if (bad.length) throw invalid(f, `${bad.join(', ')} ${bad.length === 1 ? 'is not an organization label' : 'are not organization labels'} (labels: ${[...known].join(', ') || 'none'})`);
  return ids;
});

export const ORG_MEMBERS: Record<string, Rule> = {
  name: r.string({ max: 255 }),
  owner_id: r.ref(REF.user),
  add_time: r.dateTime(),
  visible_to: r.visibleTo(),
  label_ids: orgLabels,
  address: r.nullable(addressRule),
  website: r.nullable(r.string({ empty: true, max: 255 })),
  linkedin: r.nullable(r.string({ empty: true, max: 255 })),
  industry: r.nullable(r.int({ min: 0 })),
  annual_revenue: r.nullable(r.int({ min: 0 })),
  employee_count: r.nullable(r.int({ min: 0 })),
  custom_fields: r.custom((v) => v),
};

/** The include_fields values of an organization asked for, each computed only when asked (engine/stats.ts). */
function orgStats(state: SandboxState, o: Organization, keys: readonly string[]): Record<string, unknown> {
  // Lookups by key, built once per list page (engine/page-index.ts): a scan per organization made a page O(organizations × deals).
  const own = lazy(() => recordsBy(state, state.deals, 'org_id', o.id));
  const people = lazy(() => new Set(recordsBy(state, state.persons, 'org_id', o.id).map((p) => p.id)));
  // "related" deals: deals of the organization's persons that name another (or no) organization (counted only, order aside).
  const related = lazy(() => [...people()].flatMap((id) => recordsBy(state, state.deals, 'person_id', id).filter((d) => d.org_id !== o.id)));
  const count = (rows: readonly Deal[], s: string) => rows.filter((d) => d.status === s).length;
  const acts = lazy(() => activityOrder(recordsBy(state, state.activities, 'org_id', o.id)));
  return pickStats({
    next_activity_id: () => acts().planned[0]?.id ?? null, last_activity_id: () => acts().done[0]?.id ?? null,
    open_deals_count: () => count(own(), 'open'), related_open_deals_count: () => count(related(), 'open'),
    closed_deals_count: () => own().length - count(own(), 'open'), related_closed_deals_count: () => related().length - count(related(), 'open'),
    won_deals_count: () => count(own(), 'won'), related_won_deals_count: () => count(related(), 'won'),
    lost_deals_count: () => count(own(), 'lost'), related_lost_deals_count: () => count(related(), 'lost'),
    email_messages_count: () => orgMessages(state, o.id).length, people_count: () => people().size,
    activities_count: () => acts().planned.length + acts().done.length, done_activities_count: () => acts().done.length, undone_activities_count: () => acts().planned.length,
    files_count: () => recordsBy(state, state.files, 'org_id', o.id).length, notes_count: () => recordsBy(state, state.notes, 'org_id', o.id).length,
    followers_count: () => followersOf(state, 'organization', o.id).length, smart_bcc_email: () => `${state.company.domain}+org${o.id}@pipedrivemail.com`,
  }, keys);
}

export const organizationSpec: ResourceSpec<Organization> = {
  object: 'organization',
  collection: (s) => s.organizations,
  notFound: 'Organization not found',
  base: '/api/v2/organizations',
  scopes: { read: ORG_READ, write: ORG_WRITE, search: ['contacts:read', 'contacts:full', 'search:read'] },
  fields: 'organization',
  owned: true,
  changelog: true,
  members: ORG_MEMBERS,
  required: ['name'],
  build: (env, input) => ({
    name: input.name as string, owner_id: (input.owner_id as number | undefined) ?? env.userId,
    add_time: (input.add_time as string | undefined) ?? env.now, update_time: env.now, is_deleted: false,
    visible_to: (input.visible_to as number | undefined) ?? defaultVisibility(env.state, env.req.user, 'org'),
    address: fullAddress(input.address as Record<string, unknown> | null | undefined) as Organization['address'], label_ids: (input.label_ids as number[] | undefined) ?? [],
    website: (input.website as string | null | undefined) ?? null, linkedin: (input.linkedin as string | null | undefined) ?? null,
    industry: (input.industry as number | null | undefined) ?? null, annual_revenue: (input.annual_revenue as number | null | undefined) ?? null,
    employee_count: (input.employee_count as number | null | undefined) ?? null,
    custom_fields: Object.fromEntries(Object.entries((input.custom_fields ?? {}) as Record<string, unknown>).filter(([, v]) => v !== null)),
  }),
  change: (_env, o, input) => {
    const { custom_fields: _c, address, ...plain } = input;
    return address === undefined ? plain : { ...plain, address: address === null ? null : fullAddress({ ...(o.address ?? {}), ...(address as object) }) } as Partial<Organization>;
  },
  remove: (env, o) => {
    const { state } = env;
    // Deleting an organization unlinks its persons and deals (they stay, without the organization).
    for (const p of state.persons.filter((x) => x.org_id === o.id)) state.persons.update(p.id, { org_id: null }, { userId: env.userId });
    for (const d of state.deals.filter((x) => x.org_id === o.id)) state.deals.update(d.id, { org_id: null }, { userId: env.userId });
    state.organizations.markDeleted(o.id, { is_deleted: true, update_time: env.now }, { userId: env.userId });
  },
  after: (env, o, action) => { if (action === 'create') addFollower(env.state, 'organization', o.id, o.owner_id, env.userId, env.now); },
  present: (state, o, opt) => {
    const rec: Record<string, unknown> = {
      id: o.id, name: o.name, owner_id: o.owner_id, add_time: v2Time(o.add_time), update_time: v2Time(o.update_time), is_deleted: o.is_deleted,
      visible_to: Number(o.visible_to), address: fullAddress(o.address as Record<string, unknown> | null), label_ids: o.label_ids ?? [],
      website: o.website ?? null, linkedin: (o.linkedin as string | null | undefined) ?? null, industry: (o.industry as number | null | undefined) ?? null,
      annual_revenue: (o.annual_revenue as number | null | undefined) ?? null, employee_count: (o.employee_count as number | null | undefined) ?? null,
      custom_fields: presentCustomFields(state, 'organization', o.custom_fields, opt),
    };
    if (opt.include.length) Object.assign(rec, orgStats(state, o, opt.include));
    return rec;
  },
  include: ORG_INCLUDE,
  list: {
    filters: { owner_id: { kind: 'int', test: (o, v: number) => o.owner_id === v } },
    filterType: 'org',
    ids: true,
    updated: true,
  },
  search: {
    fields: ['address', 'custom_fields', 'notes', 'name'],
    match: (state, o, term, exact, fields) => searchText(state, {
      term, exact, fields, title: [...(fields.has('name') ? [o.name] : []), ...(fields.has('address') && o.address?.value ? [o.address.value] : [])],
      notes: state.notes.filter((n) => n.org_id === o.id).map((n) => n.content), entity: 'organization', custom: o.custom_fields,
    }),
    item: (_state, o, hit) => ({
      id: o.id, type: 'organization', name: o.name, address: o.address?.value ?? null, visible_to: Number(o.visible_to), owner: { id: o.owner_id },
      custom_fields: hit.custom, notes: hit.notes,
    }),
  },
};
