// POST /__sandbox/bulk {collection: 'leads' | 'deals', count}: inserts N synthetic records at once,
// so benchmarks and tests can build a large account without paying N API calls. Records have the
// same shape as API-created ones; inserts are silent (no webhook events for synthetic data).
import { randomUUID } from 'node:crypto';
import type { SandboxState } from './store/state.js';

const MAX = 1_000_000;
const CURRENCIES = ['EUR', 'USD', 'GBP'];

export function bulkInsert(state: SandboxState, body: Record<string, unknown>): { inserted: number; total: number } | string {
  const collection = body.collection;
  const count = body.count;
  if (collection !== 'leads' && collection !== 'deals') return 'collection: only leads and deals can be bulk-inserted';
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX) return `count: must be an integer from 1 to ${MAX}`;
  return collection === 'deals' ? bulkDeals(state, count) : bulkLeads(state, count);
}

function bulkLeads(state: SandboxState, count: number): { inserted: number; total: number } {
  const admin = state.adminUserId();
  const orgs = state.organizations.all().map((o) => o.id);
  const persons = state.persons.all().map((p) => p.id);
  // add_time grows by 1 ms per record after the newest lead, so "oldest first" stays the insertion order.
  const newest = state.leads.all().reduce((m, l) => Math.max(m, Date.parse(l.add_time) || 0), 0);
  const base = Math.max(state.now(), newest + 1);
  const start = state.leads.allWithDeleted().length;
  for (let i = 0; i < count; i++) {
    const n = start + i + 1;
    const t = new Date(base + i).toISOString();
    const org = orgs.length ? orgs[n % orgs.length]! : null;
    const person = persons.length && (n % 3 === 0 || org === null) ? persons[n % persons.length]! : null;
    state.leads.insert({
      id: randomUUID(), title: `Bulk lead ${String(n).padStart(7, '0')}`, owner_id: admin, creator_id: admin, label_ids: [],
      person_id: person, organization_id: org === null && person === null ? null : org,
      source_name: 'API', origin: 'API', origin_id: null, channel: null, channel_id: null, source_deal_id: null,
      is_archived: false, archive_reason: null, was_seen: n % 2 === 0,
      value: n % 4 === 0 ? null : { amount: (n * 37) % 100_000, currency: CURRENCIES[n % CURRENCIES.length]! },
      expected_close_date: null, next_activity_id: null, add_time: t, update_time: t, visible_to: '3',
      cc_email: `${state.company.domain}+lead${n}@pipedrivemail.com`,
    }, { silent: true });
  }
  return { inserted: count, total: state.leads.size };
}

/** Deals spread over the live stages, a fifth won and a tenth lost, with the service's time fields set to match. */
function bulkDeals(state: SandboxState, count: number): { inserted: number; total: number } | string {
  const admin = state.adminUserId();
  const orgs = state.organizations.all().map((o) => o.id);
  const persons = state.persons.all().map((p) => p.id);
  const stages = state.stages.all().filter((s) => !s.is_deleted);
  if (!stages.length) return 'deals need a stage: the account has none';
  const newest = state.deals.all().reduce((m, d) => Math.max(m, Date.parse(d.add_time) || 0), 0);
  // Ending about now: one second apart (v2 times have second precision) keeps add_time order the insertion order.
  const base = Math.max(state.now() - count * 1000, newest + 1000);
  const start = state.deals.allWithDeleted().length;
  for (let i = 0; i < count; i++) {
    const n = start + i + 1;
    const t = new Date(base + i * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const stage = stages[n % stages.length]!;
    const status = n % 5 === 0 ? 'won' : n % 10 === 1 ? 'lost' : 'open';
    state.deals.insert({
      title: `Bulk deal ${String(n).padStart(7, '0')}`, owner_id: admin, creator_user_id: admin,
      person_id: persons.length && n % 2 === 0 ? persons[n % persons.length]! : null, org_id: orgs.length ? orgs[n % orgs.length]! : null,
      pipeline_id: stage.pipeline_id, stage_id: stage.id, value: (n * 37) % 100_000, currency: CURRENCIES[n % CURRENCIES.length]!,
      add_time: t, update_time: t, stage_change_time: null, is_deleted: false, is_archived: false, status, probability: null,
      lost_reason: status === 'lost' ? 'Price' : null, visible_to: 3, close_time: status === 'open' ? null : t,
      won_time: status === 'won' ? t : null, lost_time: status === 'lost' ? t : null, expected_close_date: null, label_ids: [],
      origin: 'API', origin_id: null, channel: null, channel_id: null, source_lead_id: null, custom_fields: {},
    }, { silent: true });
  }
  return { inserted: count, total: state.deals.size };
}
