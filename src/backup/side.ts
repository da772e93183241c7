/**
 * One account's names for its ids (a "side" of a restore or a diff): users by e-mail, pipelines,
 * stages (by pipeline and name), lead labels, boards and phases, and each item type's field catalog
 * (labels and custom fields with their options). A backup's side is read from its files (records/ and
 * fields/); a live account's side from the service (src/backup/live-side.ts). Ids differ between
 * accounts; these names do not, so a record is carried and compared through them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { paths } from './format.js';
import type { ItemType } from './kinds.js';

type Rec = Record<string, unknown>;

export interface FieldDef {
  key: string;
  name: string;
  field_type: string;
  custom?: boolean;
  options: Array<{ id: number | string; label: string }>;
}

export interface SideData {
  users: Rec[];
  pipelines: Rec[];
  stages: Rec[];
  leadLabels: Rec[];
  boards: Rec[];
  phases: Rec[];
  fields: Partial<Record<ItemType, FieldDef[]>>;
}

const ITEMS: ItemType[] = ['deal', 'person', 'organization', 'product', 'activity', 'project'];

export class Side {
  private readonly byId = new Map<string, Map<string, Rec>>();

  constructor(readonly data: SideData) {
    for (const [name, rows] of Object.entries({ users: data.users, pipelines: data.pipelines, stages: data.stages, 'lead-labels': data.leadLabels, boards: data.boards, phases: data.phases })) {
      this.byId.set(name, new Map(rows.map((r) => [String(r.id), r])));
    }
  }

  /**
   * The currency of a monetary value stored without one: the account's default (its users' default
   * currency; the service shows such amounts in it).
   */
  get defaultCurrency(): string | undefined {
    const me = this.data.users.find((u) => u.is_you === true) ?? this.data.users[0];
    return typeof me?.default_currency === 'string' ? me.default_currency : undefined;
  }

  /** The item type's schema (leads use the deal fields). */
  fieldsOf(item: ItemType): FieldDef[] {
    return this.data.fields[item === 'lead' ? 'deal' : item] ?? [];
  }

  /** The built-in label field of an item type (`label_ids`, or `label` where the service names it so). */
  labelField(item: ItemType): FieldDef | undefined {
    const f = this.fieldsOf(item);
    return f.find((x) => !x.custom && x.key === 'label_ids') ?? f.find((x) => !x.custom && x.key === 'label');
  }

  /** A reference id's name: a user's e-mail, a stage's "pipeline / stage", a label's name. */
  nameOf(kind: string, id: unknown): string | undefined {
    const r = this.byId.get(kind)?.get(String(id));
    if (!r) return undefined;
    if (kind === 'users') return typeof r.email === 'string' ? r.email.toLowerCase() : undefined;
    if (kind === 'stages') return `${this.nameOf('pipelines', r.pipeline_id) ?? '?'} / ${String(r.name)}`;
    if (kind === 'phases') return `${this.nameOf('boards', r.board_id) ?? '?'} / ${String(r.name)}`;
    return typeof r.name === 'string' ? r.name : undefined;
  }

  /** The id of a reference by its name (the inverse of nameOf). */
  idOf(kind: string, name: string): string | number | undefined {
    for (const [, r] of this.byId.get(kind) ?? []) if (this.nameOf(kind, r.id) === name) return r.id as string | number;
    return undefined;
  }

  /**
   * An option of a built-in field (a product's category) by its id → its label. A value that is no
   * option's id is taken as the label itself (some lists give the option's name, not its id).
   */
  optionLabel(item: ItemType, key: string, v: unknown): string | undefined {
    const f = this.fieldsOf(item).find((x) => !x.custom && x.key === key);
    return f?.options.find((o) => String(o.id) === String(v))?.label ?? (typeof v === 'string' && !/^\d+$/.test(v) ? v : undefined);
  }

  optionId(item: ItemType, key: string, label: string): number | string | undefined {
    return this.fieldsOf(item).find((x) => !x.custom && x.key === key)?.options.find((o) => o.label === label)?.id;
  }

  labelName(item: ItemType, id: unknown): string | undefined {
    return this.labelField(item)?.options.find((o) => String(o.id) === String(id))?.label;
  }

  labelId(item: ItemType, name: string): number | string | undefined {
    return this.labelField(item)?.options.find((o) => o.label === name)?.id;
  }
}

const ndjson = (file: string): Rec[] =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Rec) : [];

/** A backup's side: its reference records and field catalogs (small files; read whole). */
export function dirSide(dir: string): Side {
  const fields: Partial<Record<ItemType, FieldDef[]>> = {};
  for (const t of ITEMS) {
    const f = paths.fields(dir, t);
    if (existsSync(f)) fields[t] = JSON.parse(readFileSync(f, 'utf8')) as FieldDef[];
  }
  const r = (k: string) => ndjson(paths.records(dir, k));
  return new Side({ users: r('users'), pipelines: r('pipelines'), stages: r('stages'), leadLabels: r('lead-labels'), boards: r('boards'), phases: r('phases'), fields });
}
