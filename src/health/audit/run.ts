import { checkReader, readAll } from '../../entry/prepare.js';
import type { Reader } from '../../api/entry-types.js';
import { ValidationError } from '../../core/errors.js';
import { nearest } from '../../input/unknown-keys.js';
import { organizationCandidate, personCandidate } from '../candidates.js';
import { dayOf, endOfDay } from '../dates.js';
import { groupDuplicates, type Candidate } from '../duplicates.js';
import { severityRank, type ActivityRecord, type DealRecord, type Finding, type OrganizationRecord, type PersonRecord, type PipelineRecord, type StageRecord } from '../types.js';
import { CHECK_IDS, type CheckId } from './checks.js';
import type { AuditConfig } from './config.js';
import type { AuditEnv, FieldRule } from './env.js';
import { inspectActivity, inspectDeal, inspectOrganization, inspectPerson, notYet } from './record-checks.js';
import { auditReads, type ReadKind } from './reads.js';

export interface AuditOptions {
  cfg: AuditConfig;
  /** Today for the checks (`--as-of`); default the service's date. */
  asOf?: string;
  /** Told which reads the audit will make before the first one (the command prints their cost). */
  onPlan?: (reads: ReadKind[]) => void;
}

export interface AuditResult {
  findings: Finding[];
  asOf: string;
  /** Records read, per kind. */
  read: Record<'deals' | 'persons' | 'organizations' | 'activities', number>;
  /** Name pairs the duplicate checks compared. */
  comparisons: number;
}

/**
 * The audit: one paged read of each kind its enabled checks need (undone activities, deals, persons,
 * organizations; each list read once, page after page), plus the stage list and the field lists that
 * thresholds and required fields name. Record checks run page by page; the duplicate checks keep a
 * small candidate per person or organization and group them at the end.
 */
export async function runAudit(reader: Reader, o: AuditOptions): Promise<AuditResult> {
  const { cfg } = o;
  const on = (id: CheckId) => cfg.enabled[id];
  const reads = auditReads(cfg);
  o.onPlan?.(reads);
  const http = await reader.http();
  const findings: Finding[] = [];
  let clock: { today: string; nowMs: number } | undefined;
  const env: AuditEnv = {
    cfg,
    get today() {
      return time().today;
    },
    get nowMs() {
      return time().nowMs;
    },
    stages: new Map(),
    pipelines: new Map(),
    staleDays: new Map(),
    planned: new Set(),
    fieldNames: new Map(),
    required: { deal: [], person: [], organization: [] },
    on,
    emit: (f) => findings.push({ ...f, severity: cfg.severity[f.check] }),
  };
  // Today is the service's date unless --as-of says: known once the first answer came (its Date header).
  function time() {
    if (!clock) {
      const today = o.asOf ?? dayOf(http.serviceNow());
      clock = { today, nowMs: endOfDay(today) };
    }
    return clock;
  }

  const ops = await operations();
  if (reads.includes('stages')) {
    for await (const s of readAll(reader, ops.stages, {})) env.stages.set((s as StageRecord).id, s as StageRecord);
    if (reads.includes('pipelines')) for await (const p of readAll(reader, ops.pipelines, {})) env.pipelines.set((p as PipelineRecord).id, p as PipelineRecord);
    resolveStaleStages(env);
  }
  for (const kind of ['deal', 'person', 'organization'] as const) {
    if (reads.includes(`${kind}-fields`)) await readFieldRules(reader, kind, env);
  }
  const read = { deals: 0, persons: 0, organizations: 0, activities: 0 };
  if (reads.includes('activities')) {
    for await (const a of readAll(reader, ops.activities, { query: { done: false } })) {
      read.activities++;
      inspectActivity(a as ActivityRecord, env);
    }
  }
  if (reads.includes('deals')) {
    for await (const d of readAll(reader, ops.deals, {})) {
      read.deals++;
      inspectDeal(d as DealRecord, env);
    }
  }
  const people: Candidate[] = [];
  if (reads.includes('persons')) {
    for await (const r of readAll(reader, ops.persons, {})) {
      read.persons++;
      const p = r as PersonRecord;
      inspectPerson(p, env);
      if (on('duplicate-persons') && !notYet(p, env)) people.push(personCandidate(p, cfg.duplicatePersons.match, cfg.phoneRegion));
    }
  }
  const orgs: Candidate[] = [];
  if (reads.includes('organizations')) {
    for await (const r of readAll(reader, ops.organizations, {})) {
      read.organizations++;
      const org = r as OrganizationRecord;
      inspectOrganization(org, env);
      if (on('duplicate-organizations') && !notYet(org, env)) orgs.push(organizationCandidate(org, cfg.duplicateOrganizations.match));
    }
  }
  let comparisons = 0;
  for (const [check, kind, cands, o2] of [
    ['duplicate-persons', 'person', people, { byName: cfg.duplicatePersons.match.includes('name'), threshold: cfg.duplicatePersons.nameSimilarity }],
    ['duplicate-organizations', 'organization', orgs, { byName: cfg.duplicateOrganizations.match.includes('name'), threshold: cfg.duplicateOrganizations.nameSimilarity }],
  ] as const) {
    if (!on(check)) continue;
    const r = groupDuplicates(cands, o2);
    comparisons += r.comparisons;
    const names = new Map(cands.map((c) => [c.id, c.name]));
    for (const g of r.groups) {
      env.emit({ check, kind, ids: g.ids, name: names.get(g.ids[0]!) ?? '', message: `${g.ids.length} records: ${g.reasons.join('; ')}`, key: `${check}|${kind}|${g.ids.join(',')}` });
    }
  }
  return { findings: sortFindings(findings), asOf: time().today, read, comparisons };
}

/** Worst first, then in the order of the checks, then by record. */
export function sortFindings(fs: Finding[]): Finding[] {
  const order = (c: string) => (CHECK_IDS as readonly string[]).indexOf(c);
  return fs.sort((a, b) => severityRank(b.severity) - severityRank(a.severity) || order(a.check) - order(b.check) || a.ids[0]! - b.ids[0]! || a.key.localeCompare(b.key));
}

async function operations() {
  const [{ dealOps }, { personOps }, { organizationOps }, { activityOps }, { stageOps }, { pipelineOps }] = await Promise.all([
    import('../../api/operations/deals.js'),
    import('../../api/operations/persons.js'),
    import('../../api/operations/organizations.js'),
    import('../../api/operations/activities.js'),
    import('../../api/operations/stages.js'),
    import('../../api/operations/pipelines.js'),
  ]);
  return { deals: dealOps.list, persons: personOps.list, organizations: organizationOps.list, activities: activityOps.list, stages: stageOps.list, pipelines: pipelineOps.list };
}

/** `stages:` thresholds of stale-deals, keyed by stage id, `Pipeline/Stage` or a stage name (every stage so named). */
function resolveStaleStages(env: AuditEnv): void {
  const stages = [...env.stages.values()].filter((s) => !s.is_deleted);
  for (const [key, days] of Object.entries(env.cfg.staleDeals.stages)) {
    const field = `${env.cfg.source}: checks.stale-deals.stages.${key}`;
    let hits: StageRecord[];
    if (/^\d+$/.test(key)) hits = stages.filter((s) => s.id === Number(key));
    else if (key.includes('/')) {
      const [pipe, stage] = key.split('/').map((x) => x.trim().toLowerCase()) as [string, string];
      hits = stages.filter((s) => s.name.trim().toLowerCase() === stage && env.pipelines.get(s.pipeline_id)?.name.trim().toLowerCase() === pipe);
    } else hits = stages.filter((s) => s.name.trim().toLowerCase() === key.trim().toLowerCase());
    if (!hits.length) {
      const names = stages.map((s) => s.name);
      const near = nearest(key.split('/').pop() ?? key, names);
      throw new ValidationError([{ field, rule: `no such stage in the account${near ? ` (did you mean "${near}"?)` : `; stages: ${[...new Set(names)].join(', ')}`}` }]);
    }
    for (const s of hits) env.staleDays.set(s.id, days);
  }
}

/** Where a v2 record keeps a system field whose code differs from its member (the field list names `email`, a person carries `emails`). */
const RECORD_KEY: Record<string, Record<string, string>> = {
  deal: { user_id: 'owner_id', pipeline: 'pipeline_id', label: 'label_ids' },
  person: { email: 'emails', phone: 'phones', label: 'label_ids' },
  organization: { label: 'label_ids' },
};

const LIST_NAME = { deal: 'deals', person: 'persons', organization: 'organizations' } as const;

/** The field list of a kind, read once with its required flags: the fields empty-fields checks, and custom field names for messages. */
async function readFieldRules(reader: Reader, kind: 'deal' | 'person' | 'organization', env: AuditEnv): Promise<void> {
  const op = await fieldListOp(kind);
  const fields: Array<{ code: string; name: string; custom: boolean; required: boolean }> = [];
  for await (const r of checkReader(reader).readAll(op, { query: { include_fields: ['required_fields'] } })) {
    const f = r as { field_code?: string; field_name?: string; is_custom_field?: boolean; required_fields?: { enabled?: boolean } | null };
    if (typeof f.field_code !== 'string') continue;
    fields.push({ code: f.field_code, name: String(f.field_name ?? f.field_code), custom: f.is_custom_field === true, required: f.required_fields?.enabled === true });
    if (f.is_custom_field) env.fieldNames.set(f.field_code, String(f.field_name ?? f.field_code));
  }
  if (!env.on('empty-fields')) return;
  const rule = (f: (typeof fields)[number]): FieldRule => ({ code: f.code, name: f.name, custom: f.custom, recordKey: f.custom ? `custom_fields.${f.code}` : (RECORD_KEY[kind]?.[f.code] ?? f.code) });
  const rules = new Map<string, FieldRule>();
  if (env.cfg.emptyFields.accountRequired) for (const f of fields) if (f.required) rules.set(f.code, rule(f));
  const list = LIST_NAME[kind];
  for (const wanted of env.cfg.emptyFields[list]) {
    const w = wanted.trim().toLowerCase();
    const f = fields.find((x) => x.code.toLowerCase() === w) ?? fields.find((x) => x.name.trim().toLowerCase() === w);
    if (!f) {
      const near = nearest(wanted, fields.map((x) => x.name));
      throw new ValidationError([{ field: `${env.cfg.source}: checks.empty-fields.${list}`, rule: `no ${kind} field "${wanted}"${near ? ` (did you mean "${near}"?)` : ''}; give a field's name or key (crmctl ${kind}-fields list)` }]);
    }
    rules.set(f.code, rule(f));
  }
  env.required[kind] = [...rules.values()];
}

async function fieldListOp(kind: 'deal' | 'person' | 'organization') {
  switch (kind) {
    case 'deal': return (await import('../../api/operations/deal-fields.js')).dealFieldOps.list;
    case 'person': return (await import('../../api/operations/person-fields.js')).personFieldOps.list;
    case 'organization': return (await import('../../api/operations/organization-fields.js')).organizationFieldOps.list;
  }
}
