import type { Operation } from '../api/operation.js';
import { coerceField, setPath } from '../input/coerce.js';
import type { FieldSpec } from '../input/fields.js';
import { issuesToError } from '../input/issues.js';

/**
 * Checks a typed answer with the same rules as the flag: the flag's type (coerceField) and the
 * field's own zod rules (length, range, format, enum). The answer is placed in an otherwise empty
 * input and the operation's schema is run on it; only issues at the answer's own path count (the
 * other inputs are still missing). Returns the typed value or the rule broken.
 */
export function checkAnswer(op: Operation, field: FieldSpec, raw: unknown): { ok: true; value: unknown } | { ok: false; rule: string } {
  if (typeof raw === 'string' && raw.trim() === '' && field.kind !== 'string') return { ok: false, rule: 'is required' };
  let value: unknown;
  try {
    value = coerceField(field, raw);
  } catch (err) {
    return { ok: false, rule: ruleOf(err, field) };
  }
  const schema = field.location === 'query' ? op.query : op.body;
  if (schema) {
    const probe: Record<string, unknown> = {};
    setPath(probe, field.path, value);
    const r = schema.safeParse(probe, { reportInput: true });
    if (!r.success) {
      const mine = r.error.issues.filter((i) => i.path.map(String).join('.') === field.key);
      if (mine.length) return { ok: false, rule: issuesToError(mine, [field], field.location).issues[0]!.rule };
    }
  }
  // The coerced value, not the parsed one: the whole input is parsed again before sending.
  return { ok: true, value };
}

function ruleOf(err: unknown, field: FieldSpec): string {
  const text = err instanceof Error ? err.message : String(err);
  // coerceField names the flag; at the prompt the question already does.
  return text.replace(new RegExp(`^--${field.flag}: `), '');
}
