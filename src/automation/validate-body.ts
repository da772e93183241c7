import type { Operation } from '../api/operation.js';
import { coerceField, getPath as getAt, setPath as setAt } from '../input/coerce.js';
import { fieldsOf, type FieldSpec } from '../input/fields.js';
import { ValidationError } from '../core/errors.js';

export interface Issue {
  field: string;
  rule: string;
}

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
    // A contact list (emails, phones) in a cell: a plain value is one item, as the --emails flag takes it.
    if (f.valueList && !/^\s*[[{]/.test(v)) {
      setAt(out, f.path, [{ value: v.trim(), ...(f.valueList.primary ? { primary: true } : {}) }]);
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

function deleteAt(obj: Record<string, unknown>, path: string[]): void {
  const parent = getAt(obj, path.slice(0, -1));
  if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[path[path.length - 1]!];
}
