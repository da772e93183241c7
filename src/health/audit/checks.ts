import type { RecordKind, Severity } from '../types.js';

/**
 * The audit's checks: id, what they look at, default severity, one line of help. The thresholds of
 * each are in config.ts (defaults and the file's schema); what each finds is in docs/health.md.
 */
export interface CheckInfo {
  id: CheckId;
  kind: RecordKind;
  severity: Severity;
  summary: string;
}

export const CHECK_IDS = [
  'duplicate-persons',
  'duplicate-organizations',
  'no-next-activity',
  'stale-deals',
  'close-date-past',
  'empty-fields',
  'overdue-activities',
  'missing-currency',
  'invalid-emails',
  'invalid-phones',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

export const CHECKS: readonly CheckInfo[] = [
  { id: 'duplicate-persons', kind: 'person', severity: 'warning', summary: 'persons that share an e-mail or a phone number, or whose names are nearly the same' },
  { id: 'duplicate-organizations', kind: 'organization', severity: 'warning', summary: 'organizations whose names are the same or nearly so (legal suffixes aside), or that share a website' },
  { id: 'no-next-activity', kind: 'deal', severity: 'warning', summary: 'open deals with no activity planned (no undone activity)' },
  { id: 'stale-deals', kind: 'deal', severity: 'warning', summary: 'open deals not changed for N days (a threshold per stage)' },
  { id: 'close-date-past', kind: 'deal', severity: 'warning', summary: 'open deals whose expected close date has passed' },
  { id: 'empty-fields', kind: 'deal', severity: 'info', summary: 'fields the account requires, or the file names, left empty (open deals, persons, organizations)' },
  { id: 'overdue-activities', kind: 'activity', severity: 'warning', summary: 'activities not done whose due date has passed' },
  { id: 'missing-currency', kind: 'deal', severity: 'error', summary: 'money without a currency: a deal value, or a monetary custom field' },
  { id: 'invalid-emails', kind: 'person', severity: 'error', summary: 'e-mail addresses that cannot be delivered to (not name@domain.tld)' },
  { id: 'invalid-phones', kind: 'person', severity: 'warning', summary: 'phone numbers that are not valid numbers (libphonenumber; national numbers read with the default region)' },
];

export const checkInfo = (id: CheckId): CheckInfo => CHECKS.find((c) => c.id === id)!;
