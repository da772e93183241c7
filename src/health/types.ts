// The shapes account health works on: findings of the audit, and the few members of the service's
// v2 records the checks and analytics read (records carry more; these are all that is relied on).

export const SEVERITIES = ['info', 'warning', 'error'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** info < warning < error: a `--strict warning` gate fails on warnings and errors. */
export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s);

export type RecordKind = 'deal' | 'person' | 'organization' | 'activity';

export interface Finding {
  check: string;
  severity: Severity;
  kind: RecordKind;
  /** The records concerned: one, or every member of a duplicate group (lowest id first). */
  ids: number[];
  /** The record's title or name (the first member's for a group). */
  name: string;
  message: string;
  /**
   * What makes the finding the same one on the next run (`crmctl watch`): the check, the records and
   * what is wrong, never a figure that grows by itself (days overdue), so a finding is "new" only once.
   */
  key: string;
}

export interface Money {
  value: number;
  currency: string;
}

export interface DealRecord {
  id: number;
  title: string;
  status: 'open' | 'won' | 'lost' | string;
  value: number | null;
  currency: string | null;
  owner_id: number;
  person_id: number | null;
  org_id: number | null;
  pipeline_id: number;
  stage_id: number;
  probability: number | null;
  add_time: string;
  update_time: string | null;
  stage_change_time: string | null;
  expected_close_date: string | null;
  won_time: string | null;
  lost_time: string | null;
  close_time: string | null;
  custom_fields?: Record<string, unknown> | null;
  [k: string]: unknown;
}

export interface ContactValue {
  value: string;
  primary?: boolean;
  label?: string;
}

export interface PersonRecord {
  id: number;
  name: string;
  emails?: ContactValue[] | null;
  phones?: ContactValue[] | null;
  owner_id?: number;
  org_id?: number | null;
  add_time: string;
  update_time?: string | null;
  custom_fields?: Record<string, unknown> | null;
  [k: string]: unknown;
}

export interface OrganizationRecord {
  id: number;
  name: string;
  owner_id?: number;
  website?: string | null;
  address?: { value?: string | null } | null;
  add_time: string;
  update_time?: string | null;
  custom_fields?: Record<string, unknown> | null;
  [k: string]: unknown;
}

export interface ActivityRecord {
  id: number;
  subject: string;
  type: string;
  done: boolean;
  due_date: string | null;
  due_time?: string | null;
  owner_id: number;
  deal_id: number | null;
  person_id?: number | null;
  org_id?: number | null;
  [k: string]: unknown;
}

export interface StageRecord {
  id: number;
  name: string;
  pipeline_id: number;
  order_nr: number;
  deal_probability: number;
  is_deleted?: boolean;
}

export interface PipelineRecord {
  id: number;
  name: string;
  is_deal_probability_enabled?: boolean;
  is_deleted?: boolean;
}
