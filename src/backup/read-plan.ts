/**
 * How a backup reads each record kind from the service: one list per kind (v2 where a v2 list exists),
 * read page by page, and the child collections of each page read right after it (a deal's products,
 * a note's comments). The page and its children are one step of the run: written, fsynced, then
 * journaled together (src/backup/run.ts).
 *
 * Where v1 must be used (no v2 list exists, api-facts §10-11): leads and archived leads, notes and
 * their comments, files and their bytes, call logs, deal participants, users, lead labels, activity
 * types, and the deals summary (the only count the service gives, for the estimate).
 *
 * Child lists the service only serves per record cost one read each; the list's own counts
 * (include_fields) say which records have any, so a record with none costs nothing:
 *   deal products, installments  one read per 100 deals that have products (GET /api/v2/deals/products?deal_ids=,
 *                                GET /api/v2/deals/installments?deal_ids=): installments need a one-time product
 *   deal discounts               one read per deal with products (a discount is on the products' total)
 *   deal participants            one read per deal whose participants_count is more than its own person
 *   followers (deals, persons, organizations)  one read per record with more than one follower: the owner
 *                                follows what it creates, so one follower is taken as the owner's own follow
 *   product variations           one read per product (no count exists)
 *   note comments                one read per note (no count exists; v1, 20 a read)
 * --thorough reads followers of every record that has any, and discounts of every deal.
 */
import type { Operation } from '../api/operation.js';
import { ops } from './ops.js';

type Rec = Record<string, unknown>;

export interface ChildRead {
  kind: string;
  /** The records of the page whose children are read. */
  when(r: Rec, thorough: boolean): boolean;
  op(): Promise<Operation>;
  /** Per record (path id) or per batch of ids in a query (`deal_ids`, at most 100). */
  by: { param: string } | { query: string; batch: number };
  /** The key each child line carries first: the parent's id. */
  parentKey: string;
}

export interface ListPass {
  kind: string;
  op(): Promise<Operation>;
  query?: Record<string, unknown>;
  children?: ChildRead[];
  /** Files: each record's bytes are downloaded into files/<id> before its page is written. */
  bytes?: boolean;
}

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0) || 0);

/** Followers beyond the owner's own follow (or any, --thorough). */
const followers = (op: () => Promise<Operation>, kind: string, parentKey: string): ChildRead => ({
  kind, op, by: { param: 'id' }, parentKey,
  when: (r, thorough) => num(r.followers_count) > (thorough ? 0 : 1),
});

const dealChildren: ChildRead[] = [
  { kind: 'deal-products', op: async () => (await ops.deals()).productsOfDeals, by: { query: 'deal_ids', batch: 100 }, parentKey: 'deal_id', when: (r, thorough) => thorough || num(r.products_count) > 0 },
  { kind: 'deal-installments', op: async () => (await import('../api/operations/deal-installments.js')).dealInstallmentOps.list, by: { query: 'deal_ids', batch: 100 }, parentKey: 'deal_id', when: (r, thorough) => thorough || num(r.products_count) > 0 },
  { kind: 'deal-discounts', op: async () => (await ops.deals()).discounts, by: { param: 'id' }, parentKey: 'deal_id', when: (r, thorough) => thorough || num(r.products_count) > 0 },
  {
    kind: 'deal-participants', op: async () => (await ops.deals()).participants, by: { param: 'id' }, parentKey: 'deal_id',
    // The count includes the deal's own person, whom the participants list does not repeat.
    when: (r) => num(r.participants_count) > (r.person_id === null || r.person_id === undefined ? 0 : 1),
  },
  followers(async () => (await ops.deals()).followers, 'deal-followers', 'deal_id'),
];

const DEAL_COUNTS = { include_fields: ['products_count', 'followers_count', 'participants_count'] };

/** Every list a backup reads, in restore order (what a record links to comes first). */
export const LIST_PASSES: readonly ListPass[] = [
  {
    kind: 'organizations', op: async () => (await ops.orgs()).list, query: { include_fields: ['followers_count'] },
    children: [followers(async () => (await ops.orgs()).followers, 'organization-followers', 'org_id')],
  },
  {
    kind: 'persons', op: async () => (await ops.persons()).list, query: { include_fields: ['followers_count'] },
    children: [followers(async () => (await ops.persons()).followers, 'person-followers', 'person_id')],
  },
  {
    kind: 'products', op: async () => (await ops.products()).list,
    children: [{ kind: 'product-variations', op: async () => (await ops.products()).variations, by: { param: 'id' }, parentKey: 'product_id', when: () => true }],
  },
  { kind: 'deals', op: async () => (await ops.deals()).list, query: DEAL_COUNTS, children: dealChildren },
  { kind: 'deals-archived', op: async () => (await ops.deals()).archived, query: DEAL_COUNTS, children: dealChildren },
  { kind: 'leads', op: async () => (await ops.leads()).list },
  { kind: 'leads-archived', op: async () => (await ops.leads()).archived },
  { kind: 'projects', op: async () => (await ops.projects()).list },
  { kind: 'projects-archived', op: async () => (await ops.projects()).archived },
  { kind: 'tasks', op: async () => (await ops.tasks()).list },
  { kind: 'activities', op: async () => (await ops.activities()).list },
  {
    kind: 'notes', op: async () => (await ops.notes()).list, query: { sort: 'id ASC' },
    children: [{ kind: 'note-comments', op: async () => (await ops.notes()).commentsList, by: { param: 'id' }, parentKey: 'note_id', when: () => true }],
  },
  { kind: 'files', op: async () => (await ops.files()).list, query: { sort: 'id ASC' }, bytes: true },
  { kind: 'call-logs', op: async () => (await ops.callLogs()).list },
];

/** The kinds a pass writes: its own and its children's. */
export const passKinds = (p: ListPass): string[] => [p.kind, ...(p.children ?? []).map((c) => c.kind)];

/** Kinds --skip may name: a list and its children go together (skipping deals skips deal-products). */
export const SKIPPABLE = LIST_PASSES.flatMap(passKinds);

/**
 * The passes in groups that share no file: deals and archived deals write the same child files (their
 * products, discounts, …), so their pages are read in turn, never side by side; every other list writes
 * files of its own. A group keeps the passes' order.
 */
export function fileGroups(passes: readonly ListPass[]): ListPass[][] {
  let groups: Array<{ kinds: Set<string>; passes: ListPass[] }> = [];
  for (const p of passes) {
    const kinds = passKinds(p);
    const sharing = groups.filter((g) => kinds.some((k) => g.kinds.has(k)));
    const merged = { kinds: new Set([...sharing.flatMap((g) => [...g.kinds]), ...kinds]), passes: [...sharing.flatMap((g) => g.passes), p] };
    groups = [...groups.filter((g) => !sharing.includes(g)), merged];
  }
  const order = (a: ListPass, b: ListPass) => passes.indexOf(a) - passes.indexOf(b);
  return groups.map((g) => g.passes.sort(order)).sort((a, b) => order(a[0]!, b[0]!));
}
