import type { FieldCatalog } from '../../names/catalog.js';
import type { FakeKind } from './pseudonym.js';

export type SampleKind = 'organizations' | 'persons' | 'deals' | 'activities';

/** Load order: what a record links to comes first. */
export const SAMPLE_KINDS: readonly SampleKind[] = ['organizations', 'persons', 'deals', 'activities'];

/** Custom-field item type of each kind. */
export const ITEM_TYPE = { organizations: 'organization', persons: 'person', deals: 'deal', activities: 'activity' } as const;

interface Policy {
  /** Columns copied as they are: shape (stages, values, dates, options), never people's data. */
  keep: readonly string[];
  /** Columns replaced by a deterministic fake of the given kind. */
  fake: Readonly<Record<string, FakeKind>>;
}

/**
 * What a sample keeps of each kind. An allow-list: a column the service adds later is left out until
 * someone decides it holds no personal data. Owners and users are dropped (users are read-only, a
 * loaded record belongs to the sandbox user that loads it); free text (notes, descriptions, lost
 * reasons, addresses, web sites) is dropped; titles and subjects are replaced, since they often name
 * the customer. Ids stay beside the names: they are the source account's and import uses the names.
 */
const POLICIES: Record<SampleKind, Policy> = {
  organizations: {
    keep: ['id', 'visible_to', 'industry', 'annual_revenue', 'employee_count'],
    fake: { name: 'organization' },
  },
  persons: {
    keep: ['id', 'org_id', 'visible_to', 'job_title'],
    fake: { name: 'person', org_name: 'organization', emails: 'email', phones: 'phone' },
  },
  deals: {
    keep: ['id', 'person_id', 'org_id', 'pipeline_id', 'pipeline_name', 'stage_id', 'stage_name', 'value', 'currency', 'status', 'probability', 'visible_to', 'expected_close_date', 'channel'],
    fake: { title: 'deal', person_name: 'person', org_name: 'organization' },
  },
  activities: {
    keep: ['id', 'type', 'deal_id', 'person_id', 'org_id', 'due_date', 'due_time', 'duration', 'busy', 'done', 'priority'],
    fake: { subject: 'activity', person_name: 'person', org_name: 'organization' },
  },
};

/**
 * Custom field types whose values are shape, not people's data: options, numbers, amounts, dates.
 * Text, phone, address and links to users, persons or organizations are left out.
 */
export const SAFE_CUSTOM_TYPES: ReadonlySet<string> = new Set(['enum', 'set', 'double', 'int', 'monetary', 'date', 'daterange', 'time', 'timerange']);

/** CSV columns (as an export names them) of the custom fields a sample keeps. */
export function keptCustomColumns(cat: FieldCatalog): Set<string> {
  const out = new Set<string>();
  for (const f of cat.custom) {
    if (!SAFE_CUSTOM_TYPES.has(f.type)) continue;
    out.add(f.name);
    if (f.type === 'monetary') out.add(`${f.name} currency`);
    if (f.type === 'daterange' || f.type === 'timerange') out.add(`${f.name} until`);
  }
  return out;
}

/** The columns of an export that the sample writes, in the export's order. */
export function sampleColumns(kind: SampleKind, exportColumns: string[], custom: Set<string>): string[] {
  const p = POLICIES[kind];
  return exportColumns.filter((c) => p.keep.includes(c) || c in p.fake || custom.has(c));
}

/** A row with its personal values replaced (a copy; `fake` gives the replacement of one value). */
export function pseudonymize(kind: SampleKind, row: Record<string, unknown>, fake: (k: FakeKind, v: unknown) => unknown, fakeList: (k: 'email' | 'phone', v: unknown) => unknown): Record<string, unknown> {
  const out = { ...row };
  for (const [col, k] of Object.entries(POLICIES[kind].fake)) {
    if (!(col in out)) continue;
    out[col] = k === 'email' || k === 'phone' ? fakeList(k, out[col]) : fake(k, out[col]);
  }
  return out;
}
