import type { CheckId } from './checks.js';
import type { AuditConfig } from './config.js';

/** The reads an audit makes: each record list once (every page), and the lists the settings name. */
export type ReadKind = 'stages' | 'pipelines' | 'deal-fields' | 'person-fields' | 'organization-fields' | 'activities' | 'deals' | 'persons' | 'organizations';

/**
 * What each read costs (the operations' stated costs; a record list per page of 500). Said before the
 * audit starts, against what is left of the daily budget.
 */
export const READ_COST: Record<ReadKind, { cost: number; what: string; paged: boolean }> = {
  stages: { cost: 5, what: 'stages', paged: false },
  pipelines: { cost: 5, what: 'pipelines', paged: false },
  'deal-fields': { cost: 10, what: 'deal fields', paged: false },
  'person-fields': { cost: 10, what: 'person fields', paged: false },
  'organization-fields': { cost: 10, what: 'organization fields', paged: false },
  activities: { cost: 10, what: 'activities not done', paged: true },
  deals: { cost: 10, what: 'deals', paged: true },
  persons: { cost: 10, what: 'persons', paged: true },
  organizations: { cost: 10, what: 'organizations', paged: true },
};

const NEEDS: Record<CheckId, ReadKind[]> = {
  'duplicate-persons': ['persons'],
  'duplicate-organizations': ['organizations'],
  'no-next-activity': ['activities', 'deals', 'stages'],
  'stale-deals': ['deals', 'stages'],
  'close-date-past': ['deals', 'stages'],
  'empty-fields': ['deal-fields', 'person-fields', 'organization-fields', 'deals', 'persons', 'organizations'],
  'overdue-activities': ['activities'],
  'missing-currency': ['deals', 'persons', 'organizations'],
  'invalid-emails': ['persons'],
  'invalid-phones': ['persons'],
};

const ORDER: ReadKind[] = ['stages', 'pipelines', 'deal-fields', 'person-fields', 'organization-fields', 'activities', 'deals', 'persons', 'organizations'];

export function auditReads(cfg: AuditConfig): ReadKind[] {
  const want = new Set<ReadKind>();
  for (const [id, reads] of Object.entries(NEEDS) as Array<[CheckId, ReadKind[]]>) if (cfg.enabled[id]) for (const r of reads) want.add(r);
  // Stage thresholds named "Pipeline/Stage" need the pipelines' names.
  if (cfg.enabled['stale-deals'] && Object.keys(cfg.staleDeals.stages).some((k) => k.includes('/'))) want.add('pipelines');
  return ORDER.filter((r) => want.has(r));
}

/** The least the reads cost (one page of each list): the figure said against the daily budget. */
export function leastCost(reads: readonly ReadKind[]): number {
  return reads.reduce((n, r) => n + READ_COST[r].cost, 0);
}

/** `deals, persons (10 a page of 500 records each); stages (5); deal fields (10)`: what the audit will read. */
export function describeReads(reads: readonly ReadKind[]): string {
  const paged = reads.filter((r) => READ_COST[r].paged).map((r) => READ_COST[r].what);
  const once = reads.filter((r) => !READ_COST[r].paged).map((r) => `${READ_COST[r].what} (${READ_COST[r].cost})`);
  return [paged.length ? `${paged.join(', ')} (10 tokens a page of 500 records each)` : '', ...once].filter(Boolean).join('; ');
}
