// POST /__sandbox/bulk {collection: 'leads', count, seed?}: inserts N synthetic records at once,
// so benchmarks and tests can build a large account without paying N API calls. Records have the
// same shape as API-created ones; inserts are silent (no webhook events for synthetic data).
import { randomUUID } from 'node:crypto';
import type { SandboxState } from './store/state.js';

const MAX = 1_000_000;
const CURRENCIES = ['EUR', 'USD', 'GBP'];

export function bulkInsert(state: SandboxState, body: Record<string, unknown>): { inserted: number; total: number } | string {
  const collection = body.collection;
  const count = body.count;
  if (collection !== 'leads') return 'collection: only leads can be bulk-inserted';
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX) return `count: must be an integer from 1 to ${MAX}`;
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
