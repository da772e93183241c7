import type { Operation } from '../../api/operation.js';
import { checkReader, type CheckReader, type Reader } from '../../entry/prepare.js';
import { FILTER_FIELD_KIND } from '../name-deps.js';
import type { FixtureRecord } from '../parse.js';
import { findTokens } from '../refs.js';
import { asList, collect } from '../../core/lists.js';
import type { V1Field } from '../../names/where-resolve.js';

// A filter's conditions hold field ids (and option, stage and user ids), which differ between accounts.
// Pull writes them by name instead, in the form every door takes (`where: ["Lead score >= 40"]`,
// src/names/conditions.ts), and a condition is written by name only when translating the name back
// gives exactly the account's condition: what cannot round-trip stays in reference.yaml with the reason.

/** Where pull keeps a filter's conditions by name (or why they have none) on the live record. */
export const NAMES = '$names';
export const UNNAMED = '$unnamed';
/** Where pull keeps the condition values of a filter that are people's data ({ kind, value }: a person's name, an e-mail). */
export const PERSONAL = '$personal';

/** A condition value that is people's data, and what it is (the kind of fake `pull --sample` puts in its place). */
export interface PersonalValue {
  kind: 'person' | 'organization' | 'email' | 'phone' | 'deal' | 'activity';
  value: string;
}

/** Fields whose condition values are people's data, per filter type (link fields by their type, below). */
const PERSONAL_FIELDS: Record<string, Record<string, PersonalValue['kind']>> = {
  deals: { title: 'deal' },
  people: { name: 'person', first_name: 'person', last_name: 'person', email: 'email', phone: 'phone' },
  org: { name: 'organization' },
  activity: { subject: 'activity' },
};
const PERSONAL_TYPES: Record<string, PersonalValue['kind']> = { people: 'person', org: 'organization', phone: 'phone', email: 'email' };

/** The kind of people's data a condition on `field` holds, if any (an id of a person is not a name). */
function personalKind(type: string, field: V1Field, value: string): PersonalValue['kind'] | undefined {
  const kind = PERSONAL_FIELDS[type]?.[field.key] ?? PERSONAL_TYPES[field.field_type];
  if (!kind || ((kind === 'person' || kind === 'organization') && PERSONAL_TYPES[field.field_type] && /^\d+$/.test(value))) return undefined;
  return kind;
}

/** A live record as the service lists it (kinds.ts names it too; not imported, kinds.ts imports this file). */
type Live = Record<string, unknown>;

export interface WhereNames {
  where: string[];
  or_where: string[];
}

interface Cond {
  object?: unknown;
  field_id?: unknown;
  operator?: unknown;
  value?: unknown;
  extra_value?: unknown;
}

/** A reader that reads each list once: many filters name the same fields, stages and users. */
export function memoReader(reader: Reader): CheckReader & { ops: Map<string, Operation> } {
  const ops = new Map<string, Operation>();
  const base: Reader = { http: () => reader.http(), debug: (l) => reader.debug(l), ...(reader.credentials ? { credentials: () => reader.credentials!() } : {}), memo: new Map() };
  const cr = checkReader(base);
  return {
    ...cr,
    ops,
    read: (op, raw) => {
      ops.set(op.id, op);
      return cr.read(op, raw);
    },
    readAll: (op, raw, paging) => {
      ops.set(op.id, op);
      return cr.readAll(op, raw, paging);
    },
  };
}

/** What the reads of a memo reader cost (each list once). */
export const memoCost = (r: { ops: Map<string, Operation> }): number => [...r.ops.values()].reduce((n, op) => n + (op.cost ?? 0), 0);

/** The service's condition tree as it is compared: ids and values as text, nulls left out, a missing OR group empty. */
export function normalTree(c: unknown): unknown {
  const top = c as { glue?: unknown; conditions?: unknown } | undefined;
  if (!top || !Array.isArray(top.conditions)) return c ?? null;
  const groups = (top.conditions as Array<{ glue?: unknown; conditions?: unknown }>).map((g) => ({
    glue: g.glue,
    conditions: (Array.isArray(g.conditions) ? (g.conditions as Cond[]) : []).map((x) => {
      const out: Record<string, unknown> = { object: x.object, field_id: String(x.field_id), operator: x.operator };
      if (x.value !== null && x.value !== undefined) out.value = String(x.value);
      if (x.extra_value !== null && x.extra_value !== undefined) out.extra_value = String(x.extra_value);
      return out;
    }),
  }));
  if (groups.length === 1 && groups[0]!.glue === 'and') groups.push({ glue: 'or', conditions: [] });
  return { glue: top.glue, conditions: groups };
}

const same = (a: unknown, b: unknown) => JSON.stringify(normalTree(a)) === JSON.stringify(normalTree(b));

/**
 * Sets `$names` (the conditions by name) or `$unnamed` (why not) on each live filter. Filters of
 * types the names do not cover are left alone (their own rule keeps them out of the files).
 */
export async function nameFilters(reader: CheckReader, filters: Live[]): Promise<void> {
  const { TYPES } = await import('../../names/where-resolve.js');
  for (const f of filters) {
    if (!TYPES[String(f.type)]) continue;
    try {
      const names = await namesOf(reader, f);
      if (typeof names === 'string') f[UNNAMED] = names;
      else f[NAMES] = names;
    } catch (err) {
      f[UNNAMED] = `its conditions cannot be written by name: ${(err as Error).message}`;
    }
  }
}

async function namesOf(reader: CheckReader, f: Live): Promise<WhereNames | string> {
  const [{ TYPES }, { WHERE_OPERATORS, NO_VALUE }] = await Promise.all([import('../../names/where-resolve.js'), import('../../names/where.js')]);
  const type = String(f.type);
  const t = TYPES[type]!;
  const tree = f.conditions as { glue?: unknown; conditions?: unknown } | undefined;
  const groups = Array.isArray(tree?.conditions) ? (tree!.conditions as Array<{ glue?: unknown; conditions?: unknown }>) : [];
  if (tree?.glue !== 'and' || groups.length < 1 || groups.length > 2 || groups[0]!.glue !== 'and' || (groups[1] && groups[1].glue !== 'or')) {
    return 'its conditions are not one AND group and one OR group, the only form conditions by name (where, or_where) write';
  }
  const op = await t.fields();
  const fields = (op.pagination === 'none' ? asList(await reader.read(op)) : await collect(reader.readAll(op))) as V1Field[];
  const usable = fields.filter((x) => x.id !== null && x.id !== undefined);
  // Found before naming: a filter whose conditions cannot be written by name still lists them in reference.yaml.
  const personal: PersonalValue[] = [];
  for (const g of groups) {
    for (const c of asList(g.conditions) as Cond[]) {
      const field = usable.find((x) => String(x.id) === String(c.field_id));
      const kind = field && c.value !== null && c.value !== undefined ? personalKind(type, field, String(c.value)) : undefined;
      if (kind) personal.push({ kind, value: String(c.value) });
    }
  }
  if (personal.length) f[PERSONAL] = personal;
  const opWord = new Map(Object.entries(WHERE_OPERATORS).map(([word, service]) => [service, word]));
  const clause = async (c: Cond): Promise<string> => {
    const field = usable.find((x) => String(x.id) === String(c.field_id));
    if (!field) throw new Error(`condition field_id ${String(c.field_id)}: no ${t.object} field has this id`);
    if (c.object !== t.object) throw new Error(`condition on ${field.name}: object "${String(c.object)}" is not ${t.object}`);
    if (c.extra_value !== null && c.extra_value !== undefined) throw new Error(`condition on ${field.name}: extra_value has no name form`);
    const word = opWord.get(String(c.operator));
    if (!word) throw new Error(`condition on ${field.name}: operator "${String(c.operator)}" has no name form (${Object.keys(WHERE_OPERATORS).join(', ')})`);
    if (NO_VALUE.has(word)) return `${field.name} ${word}`;
    if (c.value === null || c.value === undefined) throw new Error(`condition on ${field.name}: "${word}" without a value`);
    return `${field.name} ${word} ${quoted(await valueName(reader, field, String(c.value)))}`;
  };
  const where = [];
  for (const c of asList((groups[0]!.conditions)) as Cond[]) where.push(await clause(c));
  const orWhere = [];
  for (const c of asList(groups[1]?.conditions) as Cond[]) orWhere.push(await clause(c));
  // The names hold only if they read back as the same conditions (a field name shadowed by another, a label twice).
  const { conditionsFromWhere } = await import('../../names/where-resolve.js');
  const back = await conditionsFromWhere(reader, type, where.map((text) => ({ text, label: 'where' })), orWhere.map((text) => ({ text, label: 'or_where' })), 'conditions');
  if (!same(back, tree)) return `its conditions by name (${[...where, ...orWhere].join('; ')}) would mean other conditions than the account's`;
  return { where, or_where: orWhere };
}

/** A condition's value as people write it: an option's label, a stage's name, a user's e-mail. */
async function valueName(reader: CheckReader, field: V1Field, value: string): Promise<string> {
  // Stages as "Pipeline/Stage" and users by e-mail: the names that find them in another account, written
  // by the one resolver of linked records (src/names/links), as export and backup write them.
  const kind = field.key === 'stage_id' ? 'stage' : field.field_type === 'user' ? 'user' : undefined;
  if (kind) {
    const { linkNames } = await import('../../names/links/resolver.js');
    const { names, not } = await linkNames(reader).carried(kind, [value]);
    const name = names.get(value);
    if (name === undefined) throw new Error(`condition on ${field.name}: ${not.get(value) ?? `no ${kind} has id ${value}`}`);
    return name;
  }
  if (field.options?.length) {
    const o = field.options.find((x) => String(x.id) === value);
    if (!o) throw new Error(`condition on ${field.name}: ${value} is not one of its option ids`);
    return o.label;
  }
  return value;
}

/** Quotes a value the clause would otherwise read differently (spaces at its ends, quotes around it, nothing). */
function quoted(v: string): string {
  return v === '' || v !== v.trim() || /^(["']).*\1$/s.test(v) ? `"${v}"` : v;
}

/**
 * The conditions of the files' filters given by name, translated as apply's create would (so plan
 * compares trees, not texts). A clause that names nothing is a problem of the files (exit 2, nothing
 * sent) unless it names a field the files themselves hold: that one is translated when apply gets to
 * the filter, after the field (compared as changed until then).
 */
export async function translateFileFilters(reader: CheckReader, records: FixtureRecord[], issues: Array<{ field: string; rule: string }>): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  const { conditionsFromWhere } = await import('../../names/where-resolve.js');
  for (const r of records) {
    if (r.kind.kind !== 'filter' || (r.spec.where === undefined && r.spec.or_where === undefined)) continue;
    // References or env in a clause are resolved only at apply: compared as changed until then.
    if (findTokens({ spec: r.spec }).found.length) continue;
    const type = String(r.spec.type);
    const ours = records.filter((x) => x.kind.kind === FILTER_FIELD_KIND[type]).map((x) => String(x.spec.field_name ?? '').toLowerCase()).filter(Boolean);
    const groups: unknown[][] = [[], []];
    let complete = true;
    for (const [g, key] of (['where', 'or_where'] as const).entries()) {
      const v = r.spec[key];
      for (const [i, text] of (Array.isArray(v) ? v : v === undefined ? [] : [v]).entries()) {
        const clause = { text: String(text), label: `${r.file}:${r.line} ${r.name}.spec.${key}[${i}]` };
        try {
          const tree = await conditionsFromWhere(reader, type, [clause], [], `${r.file}:${r.line} ${r.name}.spec.conditions`);
          groups[g]!.push(...tree.conditions[0].conditions);
        } catch (err) {
          const problems = (err as { issues?: Array<{ field: string; rule: string }> }).issues;
          if (!Array.isArray(problems)) throw err;
          complete = false;
          const lower = clause.text.trim().toLowerCase();
          if (!ours.some((name) => lower.startsWith(name))) issues.push(...problems);
        }
      }
    }
    if (complete) out.set(r.name, { glue: 'and', conditions: [{ glue: 'and', conditions: groups[0] }, { glue: 'or', conditions: groups[1] }] });
  }
  return out;
}

/** A live filter as compared with a file's: by the tree the file's names translate to, or by its own conditions. */
export function compareFilter(live: Record<string, unknown>, file: Record<string, unknown>, rec: Live, translated: unknown): Record<string, unknown> {
  const out = { ...live };
  if ('conditions' in file) {
    delete out.where;
    delete out.or_where;
    // The same tree written another way (ids as numbers, no OR group) is not a change.
    out.conditions = same(rec.conditions, file.conditions) ? file.conditions : normalTree(rec.conditions);
    return out;
  }
  if (translated !== undefined && same(rec.conditions, translated)) {
    out.where = file.where;
    if (file.or_where === undefined) delete out.or_where;
    else out.or_where = file.or_where;
  }
  return out;
}
