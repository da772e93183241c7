import type { Operation } from '../api/operation.js';
import { coerceField, getPath as getAt, setPath as setAt } from '../input/coerce.js';
import { fieldsOf, type FieldSpec } from '../input/fields.js';
import { issuesToError } from '../input/issues.js';
import { ValidationError } from '../core/errors.js';
import { unknownKeyRule } from '../input/unknown-keys.js';

export interface Issue {
  field: string;
  rule: string;
}

export type BodyCheck = { ok: true; body: Record<string, unknown> } | { ok: false; issues: Issue[] };

/** The body fields of an operation as the generated command sees them (dotted keys, kinds, choices). */
export function bodyFields(op: Operation): FieldSpec[] {
  return fieldsOf(op.body, 'body', op.cli.flagNames, op.cli.help);
}

/**
 * Turns text values (CSV cells) into the types the operation's fields want, with the generated
 * command's rules: integers, numbers, booleans, enums, comma lists, JSON for object fields.
 * Values that are already typed (JSON input) pass through.
 */
export function coerceTextValues(fields: FieldSpec[], body: Record<string, unknown>): { body: Record<string, unknown>; issues: Issue[] } {
  const issues: Issue[] = [];
  const out = structuredClone(body);
  for (const f of fields) {
    const v = getAt(out, f.path);
    if (typeof v !== 'string') continue;
    if (f.kind === 'string') continue;
    if (v === '' ) {
      deleteAt(out, f.path);
      continue;
    }
    if (f.nullable && v.toLowerCase() === 'null') {
      setAt(out, f.path, null);
      continue;
    }
    try {
      setAt(out, f.path, coerceField(f, v));
    } catch (err) {
      const rule = err instanceof ValidationError ? err.issues[0]!.rule : (err as Error).message;
      issues.push({ field: f.key, rule });
    }
  }
  return { body: out, issues };
}

/**
 * Checks one body against the operation's zod schema: the same rules `crmctl <area> create` applies
 * to flags. Keys the schema does not know are reported (a z.object would drop them silently), except
 * those `extraKey` admits (custom-field keys), which are kept as they are.
 */
export function validateBody(op: Operation, body: Record<string, unknown>, extraKey: (k: string) => boolean = () => false): BodyCheck {
  if (!op.body) return { ok: true, body };
  const known = new Set(bodyFields(op).map((f) => f.path[0]!));
  const issues: Issue[] = [];
  const extras: Record<string, unknown> = {};
  const core: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (known.has(k)) core[k] = v;
    else if (extraKey(k)) extras[k] = v;
    else issues.push({ field: 'row', rule: unknownKeyRule(k, [...known]) });
  }
  // reportInput: zod 4 leaves the input out of issues otherwise, and a wrong type would read "is required".
  const r = op.body.safeParse(core, { reportInput: true });
  if (!r.success) {
    for (const i of issuesToError(r.error.issues, [], 'row').issues) issues.push({ field: i.field.replace(/^row\.?/, '') || 'row', rule: i.rule });
  }
  if (issues.length) return { ok: false, issues };
  return { ok: true, body: { ...(r.success ? (r.data as Record<string, unknown>) : core), ...extras } };
}

function deleteAt(obj: Record<string, unknown>, path: string[]): void {
  const parent = getAt(obj, path.slice(0, -1));
  if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[path[path.length - 1]!];
}
