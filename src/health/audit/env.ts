import type { Finding, PipelineRecord, StageRecord } from '../types.js';
import type { CheckId } from './checks.js';
import type { AuditConfig } from './config.js';

/** A field a record must not leave empty: the account requires it, or audit.yaml names it. */
export interface FieldRule {
  /** The field's code in the field list (`expected_close_date`, a 40-hex key). */
  code: string;
  name: string;
  custom: boolean;
  /** Where a v2 record keeps it: `emails` for the field `email`, `custom_fields.<key>` for custom ones. */
  recordKey: string;
}

/** What every record check reads: the settings, the day, the account's shape, and where findings go. */
export interface AuditEnv {
  cfg: AuditConfig;
  /** Today as the audit sees it (`--as-of`, else the service's date), `YYYY-MM-DD` UTC. */
  today: string;
  /** The end of today (ms): ages are counted to it. */
  nowMs: number;
  stages: Map<number, StageRecord>;
  pipelines: Map<number, PipelineRecord>;
  /** Days without a change that make a deal stale, by stage id (stages not listed: the default). */
  staleDays: Map<number, number>;
  /** Deals that have an activity not done (their next activity). */
  planned: Set<number>;
  /** Names of custom fields by key, when the field lists were read (messages name fields). */
  fieldNames: Map<string, string>;
  required: { deal: FieldRule[]; person: FieldRule[]; organization: FieldRule[] };
  on(id: CheckId): boolean;
  emit(f: Omit<Finding, 'severity'> & { check: CheckId }): void;
}
