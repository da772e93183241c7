import type * as z from 'zod/mini';
import type { Operation } from '../api/operation.js';
import { ValidationError } from '../core/errors.js';
import { getPath, setPath } from './coerce.js';
import type { FieldSpec } from './fields.js';
import { ruleText } from './issues.js';
import type { RawInput } from './operation-input.js';

/**
 * Inputs a command line left out, all at once. On a terminal crmctl asks for each (prompts/missing.ts);
 * off one it names them, and it used to name one per run: `leads create --value-amount 5` in CI said
 * `--title: is required`, then (title given) `--person-id: a lead needs a person or an organization`,
 * then `--value-currency: is required` (issue 29.5). The schemas cannot say more at once: a rule that
 * spans fields (superRefine) runs only when every member has the right type, so a missing title hides
 * the rule about person and organization. Here each missing input gets a stand-in of its type (never
 * sent; only to let the next rule run) until no rule points at an input nobody gave.
 */

/** Rounds of "validate, find the rule a missing input breaks": bounded so a rule no stand-in satisfies cannot loop. */
const MAX_RULE_ROUNDS = 6;

/** Query and body as the fields address them. */
export interface Inputs {
  query: Record<string, unknown>;
  body: unknown;
}

const where = (input: Inputs, f: FieldSpec) => (f.location === 'query' ? input.query : input.body);

/** Nobody gave this input (no flag, no --data key). */
export function isMissing(input: Inputs, f: FieldSpec): boolean {
  return getPath(where(input, f), f.path) === undefined;
}

export function setInput(input: Inputs, f: FieldSpec, value: unknown): void {
  if (f.location === 'query') input.query[f.key] = value;
  else setPath(input.body as Record<string, unknown>, f.path, value);
}

/** A field a prompt (or a flag) can answer: JSON inputs are given whole, never asked. */
export const askable = (f: FieldSpec) => f.kind !== 'json';

/**
 * The first schema issue that points at an input nobody gave (and that is not in `skip`): a rule that
 * spans fields (a lead's person or organization, a value's currency once an amount is given).
 */
export function firstRuleGap(op: Operation, fields: FieldSpec[], input: Inputs, skip: ReadonlySet<string>): { field: FieldSpec; issue: z.core.$ZodIssue } | undefined {
  for (const [schema, value, location] of [[op.query, input.query, 'query'], [op.body, input.body, 'body']] as const) {
    if (!schema) continue;
    const r = schema.safeParse(value ?? {}, { reportInput: true });
    if (r.success) continue;
    for (const issue of r.error.issues) {
      const key = issue.path.map(String).join('.');
      const f = fields.find((x) => x.location === location && x.key === key);
      if (f && askable(f) && !skip.has(f.key) && isMissing(input, f)) return { field: f, issue };
    }
  }
  return undefined;
}

/** Every input the command line left out: required fields, then the rules they leave broken, as `--flag: rule`. */
export function missingInputs(op: Operation, fields: FieldSpec[], raw: RawInput): Array<{ field: string; rule: string }> {
  const input: Inputs = { query: structuredClone(raw.query), body: structuredClone(raw.body ?? (op.body ? {} : undefined)) };
  const gaps: Array<{ field: string; rule: string }> = [];
  const named = new Set<string>();
  const standIn = (f: FieldSpec, rule: string) => {
    gaps.push({ field: `--${f.flag}`, rule });
    named.add(f.key);
    if (f.location === 'query' || (input.body !== null && typeof input.body === 'object')) setInput(input, f, standInFor(f));
  };
  for (const f of fields) if (f.required && askable(f) && isMissing(input, f)) standIn(f, 'is required');
  for (let round = 0; round < MAX_RULE_ROUNDS; round++) {
    const gap = firstRuleGap(op, fields, input, named);
    if (!gap) break;
    standIn(gap.field, ruleText(gap.issue));
  }
  return gaps;
}

/** A value of the field's type that lets the schema go on to its cross-field rules (never sent). */
function standInFor(f: FieldSpec): unknown {
  if (f.valueList) return [{ value: 'x' }];
  if (f.kind === 'enum' && f.choices?.length) return f.numericChoices ? Number(f.choices[0]) : f.choices[0];
  if (f.kind === 'integer' || f.kind === 'number') return 1;
  if (f.kind === 'boolean') return true;
  if (f.kind === 'array') return f.itemKind === 'string' || f.itemKind === undefined ? ['x'] : [1];
  return 'x';
}

/**
 * A refusal off a terminal, completed: the inputs it names plus every other one left out, in one error
 * (exit 2, nothing sent). Anything else is returned as it is.
 */
export function withEveryMissing(err: unknown, op: Operation, fields: FieldSpec[], raw: RawInput): unknown {
  if (!(err instanceof ValidationError)) return err;
  const gaps = missingInputs(op, fields, raw);
  if (!gaps.length) return err;
  const shown = new Set(gaps.map((g) => g.field));
  const issues = [...gaps, ...err.issues.filter((i) => !shown.has(i.field))];
  if (issues.length === err.issues.length && issues.every((i, k) => i.field === err.issues[k]!.field)) return err;
  return new ValidationError(issues, err.hint ?? 'Not a terminal, so nothing is asked: give each of these flags (on a terminal crmctl asks for them).');
}
