import type { z } from 'zod';
import type { Operation } from '../api/operation.js';
import { coerceField, issuesToError } from '../commands/coerce.js';
import { unwrap, type FieldSpec } from '../commands/schema-fields.js';

/** The zod schema of one input (dotted key) of an operation, without its optional/nullable wrappers. */
export function fieldSchema(op: Operation, field: Pick<FieldSpec, 'location' | 'path'>): z.ZodType | undefined {
  let s: z.ZodType | undefined = field.location === 'query' ? op.query : op.body;
  for (const key of field.path) {
    if (!s) return undefined;
    const inner = unwrap(s).inner as unknown as { def: { type: string; shape?: Record<string, z.ZodType> } };
    if (inner.def.type !== 'object') return undefined;
    s = inner.def.shape?.[key];
  }
  return s ? unwrap(s).inner : undefined;
}

/**
 * Checks a typed answer with the same rules as the flag: the flag's type (coerceField) and the
 * field's own zod rules (length, range, format, enum). Returns the typed value or the rule broken.
 */
export function checkAnswer(op: Operation, field: FieldSpec, raw: unknown): { ok: true; value: unknown } | { ok: false; rule: string } {
  if (typeof raw === 'string' && raw.trim() === '' && field.kind !== 'string') return { ok: false, rule: 'is required' };
  let value: unknown;
  try {
    value = coerceField(field, raw);
  } catch (err) {
    return { ok: false, rule: ruleOf(err, field) };
  }
  const schema = fieldSchema(op, field);
  if (schema) {
    const r = schema.safeParse(value, { reportInput: true });
    if (!r.success) return { ok: false, rule: issuesToError(r.error.issues, [field], field.location).issues[0]!.rule };
  }
  // The coerced value, not r.data: the whole input is parsed again before sending, and a transform need not be idempotent.
  return { ok: true, value };
}

function ruleOf(err: unknown, field: FieldSpec): string {
  const text = err instanceof Error ? err.message : String(err);
  // coerceField names the flag; at the prompt the question already does.
  return text.replace(new RegExp(`^--${field.flag}: `), '');
}
