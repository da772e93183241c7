import { filesOf, keepCost } from '../automation/merge-keep.js';
import { filesStay, MERGE_UNDO } from '../automation/undo-plan.js';
import { isEmpty } from './audit/record-checks.js';
import { organizationCandidate, personCandidate, type OrganizationMatch, type PersonMatch } from './candidates.js';
import { msOf } from './dates.js';
import { groupDuplicates } from './duplicates.js';
import type { OrganizationRecord, PersonRecord } from './types.js';

/**
 * The plan of a dedupe: the duplicate groups (the audit's grouping), the record each keeps (the
 * survivor a rule picks), the fields whose values differ side by side, and the merges that would do
 * it: `PUT /v1/<kind>/{id}/merge {merge_with_id: survivor}` for every other member (the service keeps
 * `merge_with_id` and merges the path's record into it). The merge run (src/health/dedupe-write.ts)
 * sends exactly these merges.
 */

export type DedupeKind = 'persons' | 'organizations';
export type KeepRule = 'oldest' | 'most-complete';
/** How the plan's survivors were chosen: a rule, or a person on a terminal, group by group. */
export type KeepChoice = KeepRule | 'picked';

export interface MergeStep {
  method: 'PUT';
  path: string;
  body: { merge_with_id: number };
  cost: number;
  /** The reads before it that keep what its undo needs (from the counts the plan's read gave: a floor, leads are not counted). */
  keep_reads: number;
  /** The files it moves to the kept record for good (the service cannot move a file back). */
  files: number;
}

export interface DedupeGroup {
  ids: number[];
  keep: number;
  why_keep: string;
  reasons: string[];
  /** Fields whose values differ, each member's value shown as text ('' for empty). */
  differences: Array<{ field: string; values: Record<string, string> }>;
  merges: MergeStep[];
}

export interface DedupePlan {
  kind: DedupeKind;
  keep: KeepChoice;
  records: number;
  groups: DedupeGroup[];
  merges: number;
  /** Cost, at least: the merges (40 each: the merge operations' stated cost) and the reads before each that keep what its undo needs. */
  cost: number;
  /** The part of the cost spent reading what the undo needs, at least (src/automation/merge-keep.ts keepCost). */
  undo_reads: number;
  /** The files the merges move to the kept records for good. */
  files: number;
  /** What `crmctl undo` does with the merges: the plan says it before anything is merged (also to an assistant). */
  undo: string;
}

const MERGE_COST = 40;

type Rec = (PersonRecord | OrganizationRecord) & Record<string, unknown>;

export interface DedupeSettings {
  match: readonly string[];
  threshold: number;
  region: string | undefined;
}

export function planDedupe(kind: DedupeKind, records: readonly Rec[], keep: KeepRule, s: DedupeSettings, fieldNames: ReadonlyMap<string, string> = new Map()): DedupePlan {
  const cands = records.map((r) => (kind === 'persons' ? personCandidate(r as PersonRecord, s.match as PersonMatch[], s.region) : organizationCandidate(r as OrganizationRecord, s.match as OrganizationMatch[])));
  const { groups } = groupDuplicates(cands, { byName: s.match.includes('name'), threshold: s.threshold });
  const byId = new Map(records.map((r) => [r.id, r]));
  const out: DedupeGroup[] = groups.map((g) => {
    const members = g.ids.map((id) => byId.get(id)!);
    const { id: survivor, why } = pickSurvivor(members, keep);
    return {
      ids: g.ids,
      keep: survivor,
      why_keep: why,
      reasons: g.reasons,
      differences: differences(members, fieldNames),
      merges: mergesInto(kind, g.ids, survivor, byId),
    };
  });
  return totals(kind, keep, records.length, out);
}

/** The merges into `survivor`, each with its keeping's reads and its files from the counts the records were read with (LINK_COUNTS). */
const mergesInto = (kind: DedupeKind, ids: readonly number[], survivor: number, byId: ReadonlyMap<number, Rec>): MergeStep[] =>
  ids.filter((id) => id !== survivor).map((id) => ({
    method: 'PUT' as const, path: `/v1/${kind}/${id}/merge`, body: { merge_with_id: survivor }, cost: MERGE_COST,
    keep_reads: keepCost(kind, byId.get(id), byId.get(survivor)), files: filesOf(byId.get(id)),
  }));

function totals(kind: DedupeKind, keep: KeepChoice, records: number, groups: DedupeGroup[]): DedupePlan {
  const merges = groups.reduce((n, g) => n + g.merges.length, 0);
  const steps = groups.flatMap((g) => g.merges);
  // Before each merge the run reads what its undo needs (src/automation/merge-keep.ts): part of the cost.
  const reads = steps.reduce((n, m) => n + m.keep_reads, 0);
  const files = steps.reduce((n, m) => n + m.files, 0);
  return { kind, keep, records, groups, merges, cost: merges * MERGE_COST + reads, undo_reads: reads, files, undo: MERGE_UNDO };
}

/**
 * The plan with the survivors a person picked on a terminal, one per group in order: a record id
 * (kept; the others merged into it), or null (the group is skipped: nothing merged).
 */
export function withSurvivors(plan: DedupePlan, picks: ReadonlyArray<number | null>, records: ReadonlyMap<number, Rec>): DedupePlan {
  const groups = plan.groups.flatMap((g, i): DedupeGroup[] => {
    const keep = picks[i];
    if (keep === null || keep === undefined || !g.ids.includes(keep)) return [];
    return [{ ...g, keep, why_keep: keep === g.keep ? `${g.why_keep}, picked` : 'picked', merges: mergesInto(plan.kind, g.ids, keep, records) }];
  });
  return totals(plan.kind, 'picked', plan.records, groups);
}

/** How complete a record is: the fields filled of those a group is compared on (most-complete keeps the highest). */
export function filledFields(r: Rec): number {
  return shownFields(r).filter(([, v]) => !isEmpty(v)).length;
}

/** oldest: the first added (then the lowest id). most-complete: the most fields filled (then the oldest). */
function pickSurvivor(members: Rec[], keep: KeepRule): { id: number; why: string } {
  const age = (r: Rec) => msOf(r.add_time);
  const byAge = [...members].sort((a, b) => age(a) - age(b) || a.id - b.id);
  if (keep === 'oldest') return { id: byAge[0]!.id, why: `oldest (added ${String(byAge[0]!.add_time).slice(0, 10)})` };
  const best = [...byAge].sort((a, b) => filledFields(b) - filledFields(a))[0]!;
  return { id: best.id, why: `most complete (${filledFields(best)} fields filled)` };
}

/** The members a person or organization is compared on (the record's own, and every custom field). */
function shownFields(r: Rec): Array<[string, unknown]> {
  const own = ['name', 'emails', 'phones', 'org_id', 'owner_id', 'website', 'address', 'job_title', 'birthday', 'notes', 'label_ids']
    .filter((k) => k in r)
    .map((k) => [k, r[k]] as [string, unknown]);
  const custom = Object.entries(r.custom_fields ?? {}).map(([k, v]) => [`custom_fields.${k}`, v] as [string, unknown]);
  return [...own, ...custom];
}

function differences(members: Rec[], fieldNames: ReadonlyMap<string, string>): DedupeGroup['differences'] {
  const keys = new Set(members.flatMap((m) => shownFields(m).map(([k]) => k)));
  const out: DedupeGroup['differences'] = [];
  for (const k of keys) {
    const values: Record<string, string> = {};
    for (const m of members) values[String(m.id)] = show(k.startsWith('custom_fields.') ? m.custom_fields?.[k.slice(14)] : m[k]);
    if (new Set(Object.values(values)).size > 1) {
      out.push({ field: fieldLabel(k, fieldNames), values });
    }
  }
  return out;
}

/** A custom field by its name; a monetary field's companion (`<key>_currency`) as `<name> (currency)`. */
function fieldLabel(k: string, fieldNames: ReadonlyMap<string, string>): string {
  if (!k.startsWith('custom_fields.')) return k;
  const key = k.slice('custom_fields.'.length);
  const companion = /^(.*)_(currency|until)$/.exec(key);
  if (companion && fieldNames.has(companion[1]!)) return `${fieldNames.get(companion[1]!)} (${companion[2]})`;
  return fieldNames.get(key) ?? k;
}

/** A value as one line: contact lists as their values, an address as its text. */
function show(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map((x) => (x && typeof x === 'object' && 'value' in x ? String((x as { value: unknown }).value ?? '') : show(x))).filter(Boolean).join(', ');
  if (typeof v === 'object') return 'value' in v ? show((v as { value: unknown }).value) : JSON.stringify(v);
  return String(v);
}

/** The plan for people: a block per group, members side by side, and the merges that would run. */
export function planText(p: DedupePlan): string {
  if (!p.groups.length) return `No duplicate ${p.kind} among ${p.records} records.`;
  const lines: string[] = [];
  p.groups.forEach((g, n) => {
    lines.push(...groupLines(p.kind, g, n, { keep: true }));
    for (const m of g.merges) lines.push(`  would call: ${m.method} ${m.path} ${JSON.stringify(m.body)} (cost ${m.cost})`);
    lines.push('');
  });
  if (p.files) lines.push(`Files: ${filesStay(p.files)}.`);
  lines.push(`Undo: ${p.undo}. The run keeps what it needs in reads before the merges: at least ${p.undo_reads} of the cost (leads and archived deals have no count: a page each).`);
  lines.push(`${p.groups.length} group${p.groups.length === 1 ? '' : 's'}, ${p.merges} merge${p.merges === 1 ? '' : 's'} (cost at least ${p.cost}); dry run: nothing was changed.`);
  return lines.join('\n');
}

/**
 * One group as people read it: its members and why they match, then the fields that differ side by
 * side. `keep`: with the survivor the plan keeps marked (the plan), or without (a person is about to pick it).
 */
export function groupLines(kind: DedupeKind, g: DedupeGroup, n: number, o: { keep: boolean }): string[] {
  const lines = [`Group ${n + 1}: ${kind} ${g.ids.join(', ')}: ${g.reasons.join('; ')}`];
  if (o.keep) lines.push(`  keep ${g.keep}, ${g.why_keep}; merge ${g.merges.map((m) => m.path.split('/')[3]).join(', ')} into it`);
  const kept = (id: string) => o.keep && Number(id) === g.keep;
  const cols = g.ids.map(String);
  const width = Math.max(5, ...g.differences.map((d) => d.field.length));
  const colWidth = (id: string) => Math.min(40, Math.max(id.length + (kept(id) ? 7 : 0), ...g.differences.map((d) => (d.values[id] ?? '').length)));
  const head = cols.map((id) => (kept(id) ? `${id} (keep)` : id).padEnd(colWidth(id))).join('  ');
  lines.push(`  ${'field'.padEnd(width)}  ${head}`.trimEnd());
  for (const d of g.differences) lines.push(`  ${d.field.padEnd(width)}  ${cols.map((id) => clip(d.values[id] ?? '', 40).padEnd(colWidth(id))).join('  ')}`.trimEnd());
  return lines;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
