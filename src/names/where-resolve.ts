import type { CheckReader } from '../api/entry-types.js';
import type { Operation } from '../api/operation.js';
import { ValidationError } from '../core/errors.js';
import { nearest } from '../input/unknown-keys.js';
import { NO_VALUE, parseWhere, WHERE_OPERATORS, type WhereClause } from './where.js';
import { asList, collect } from '../core/lists.js';
import type { LinkNames } from './links/resolver.js';

// Conditions by name (`--where` clauses, a `where` key at any door) → the service's condition tree.
// Field names resolve against the filter type's fields in their v1 form, the only form that carries the numeric id a condition names (the v2 list has
// the key and name only); option labels become option ids, stage names stage ids ("Pipeline/Stage"
// when two pipelines have the stage), user names user ids (both through src/names/links). Every clause is checked before anything is
// written: a name, an operator or a label that matches nothing is exit 2 naming the nearest.
// (src/names/ keeps a v2 field catalog without ids; filters need the ids, so they read the v1 list.)

/** A field as the v1 field list gives it (with the numeric id conditions use). */
export interface V1Field {
  id: number | null;
  key: string;
  name: string;
  field_type: string;
  options?: Array<{ id: number | string; label: string }> | null;
}

/** The filter types whose conditions --where can write, the object of their conditions and the v1 field list that names the ids. */
export const TYPES: Record<string, { object: string; fields: () => Promise<Operation> }> = {
  deals: { object: 'deal', fields: async () => (await import('../api/operations/deal-fields.js')).dealFieldOps.listV1 },
  people: { object: 'person', fields: async () => (await import('../api/operations/person-fields.js')).personFieldOps.listV1 },
  org: { object: 'organization', fields: async () => (await import('../api/operations/organization-fields.js')).organizationFieldOps.listV1 },
  products: { object: 'product', fields: async () => (await import('../api/operations/product-fields.js')).productFieldOps.listV1 },
  activity: { object: 'activity', fields: async () => (await import('../api/operations/activity-fields.js')).activityFieldOps.listV1 },
};
export const WHERE_TYPES = Object.keys(TYPES);

const TEXT = ['varchar', 'varchar_auto', 'text', 'phone', 'address', 'email'];
const ORDERED = ['double', 'monetary', 'int', 'date', 'time', 'daterange', 'timerange'];
const NUMBERS = ['double', 'monetary', 'int'];

export interface Condition {
  object: string;
  field_id: string;
  operator: string;
  value: string | null;
  extra_value: null;
}

export interface ConditionTree {
  glue: 'and';
  conditions: [{ glue: 'and'; conditions: Condition[] }, { glue: 'or'; conditions: Condition[] }];
}

/** One clause as given, and how refusals name it (`--where "Budget > 1000"`, `arguments.where[0] "Budget > 1000"`). */
export interface WhereInput {
  text: string;
  label: string;
}

/**
 * The vendor's tree: one AND group of the `where` clauses and one OR group of the `or_where` clauses.
 * `conditionsLabel` names the JSON input, for the refusal of a type whose fields names cannot write.
 */
export async function conditionsFromWhere(reader: CheckReader, type: string, where: WhereInput[], orWhere: WhereInput[], conditionsLabel = '--conditions'): Promise<ConditionTree> {
  const t = TYPES[type];
  if (!t) throw new ValidationError([{ field: where[0]?.label ?? orWhere[0]?.label ?? conditionsLabel, rule: `is available for filters of type ${WHERE_TYPES.join(', ')}; for ${type} give ${conditionsLabel} JSON` }]);
  const op = await t.fields();
  const fields = (op.pagination === 'none' ? asList(await reader.read(op)) : await collect(reader.readAll(op))) as V1Field[];
  const usable = fields.filter((f) => f.id !== null && f.id !== undefined);
  const names = usable.map((f) => f.name);
  // Stages and users by name through the one resolver (src/names/links): each list read once, only when a clause names one.
  const { linkNames } = await import('./links/resolver.js');
  const lookups = linkNames(reader);
  const build = async (clauses: WhereInput[]): Promise<Condition[]> => {
    const out: Condition[] = [];
    // Every clause is parsed before any is resolved: a misspelt operator is named before a stage is read.
    const parsed = clauses.map((c) => parseWhere(c.label, c.text, names));
    for (const clause of parsed) out.push(await condition(clause, t.object, usable, lookups));
    return out;
  };
  const and = await build(where);
  const or = await build(orWhere);
  return { glue: 'and', conditions: [{ glue: 'and', conditions: and }, { glue: 'or', conditions: or }] };
}

async function condition(clause: WhereClause, object: string, fields: V1Field[], lookups: LinkNames): Promise<Condition> {
  const bad = (rule: string) => new ValidationError([{ field: `${clause.flag} "${clause.text}"`, rule }]);
  const name = clause.name.toLowerCase();
  // A custom field wins over a system field of the same name (the account made it); its key works too.
  const field = fields.filter((f) => f.name.toLowerCase() === name).sort((a, b) => Number(isCustom(b)) - Number(isCustom(a)))[0] ?? fields.find((f) => f.key === clause.name);
  if (!field) {
    const near = nearest(clause.name, fields.map((f) => f.name));
    throw bad(`unknown field "${clause.name}"${near ? ` (did you mean "${near}"?)` : ''}; see crmctl ${object}-fields list`);
  }
  const kind = kindOf(field);
  const allowed = Object.keys(WHERE_OPERATORS).filter((o) => kind === 'text' ? !['<', '>', '<=', '>='].includes(o) : kind === 'ordered' ? !/start|contains/.test(o) : kind === 'choice' ? ['=', '!=', 'is empty', 'is not empty'].includes(o) : true);
  if (!allowed.includes(clause.op)) throw bad(`"${clause.op}" does not apply to ${field.name} (field type ${field.field_type}); use ${allowed.join(', ')}`);
  const base = { object, field_id: String(field.id), operator: WHERE_OPERATORS[clause.op]!, extra_value: null } as const;
  if (NO_VALUE.has(clause.op)) return { ...base, value: null };
  return { ...base, value: await conditionValue(clause.value!, field, lookups, bad) };
}

async function conditionValue(raw: string, field: V1Field, lookups: LinkNames, bad: (rule: string) => Error): Promise<string> {
  const kind = field.key === 'stage_id' ? 'stage' : field.field_type === 'user' ? 'user' : undefined;
  if (kind) {
    const found = await lookups.idOf(kind, raw);
    if ('rule' in found) throw bad(found.rule);
    return String(found.id);
  }
  if (field.options?.length) {
    const o = field.options.find((x) => x.label.toLowerCase() === raw.toLowerCase()) ?? field.options.find((x) => String(x.id) === raw);
    if (!o) {
      const near = nearest(raw, field.options.map((x) => x.label));
      throw bad(`"${raw}" is not an option of ${field.name}${near ? ` (did you mean "${near}"?)` : ''}; options: ${field.options.map((x) => x.label).join(', ')}`);
    }
    return String(o.id);
  }
  if (NUMBERS.includes(field.field_type) && !Number.isFinite(Number(raw))) throw bad(`${field.name} is a number field: "${raw}" is not a number`);
  if (field.field_type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(raw)) throw bad(`${field.name} is a date field: give YYYY-MM-DD (got "${raw}")`);
  return raw;
}

function kindOf(f: V1Field): 'text' | 'ordered' | 'choice' | 'any' {
  if (f.key === 'stage_id' || f.options?.length || ['enum', 'set', 'user', 'org', 'people', 'visible_to', 'stage', 'status'].includes(f.field_type)) return 'choice';
  if (ORDERED.includes(f.field_type)) return 'ordered';
  if (TEXT.includes(f.field_type)) return 'text';
  return 'any';
}

const isCustom = (f: V1Field) => /^[0-9a-f]{40}$/.test(f.key);
