import type { Operation, PromptSource } from '../api/operation.js';
import type { Context } from '../core/context.js';
import type { Choice, Prompter } from '../core/prompter.js';
import type { FieldSpec } from '../input/fields.js';
import { loadChoices } from './choices.js';
import { checkAnswer } from './field-rule.js';

/** The choice that leaves a select for typing the value (the list may be long, or the record not visible). */
const OTHER = Symbol('other');

export interface AskOptions {
  /** Shown instead of the plain question, e.g. the rule that made us ask. */
  message?: string;
  /** Inputs given so far (for `$key` in a hint's query). */
  given: (key: string) => unknown;
  /** The input is optional: the person may skip it (undefined is returned: the service's default applies). */
  optional?: boolean;
}

/** The choice that skips an optional input. */
const SKIP = Symbol('skip');

/**
 * Asks a person for one input and returns its typed value, checked with the flag's rules:
 * a select filled from the account when the table names a source, a select for enums,
 * yes/no for booleans, else a text input that refuses what the flag would refuse.
 */
export async function askField(ctx: Context, p: Prompter, op: Operation, field: FieldSpec, o: AskOptions): Promise<unknown> {
  const hint = op.cli.prompts?.[field.key];
  let message = o.message ?? `${label(field, Boolean(hint?.from))}:`;
  const flag = `--${field.flag}`;
  if (hint?.from) {
    const picked = await selectFromAccount(ctx, p, op, field, { ...hint, from: hint.from }, message, o);
    if (picked === SKIP) return undefined;
    if (picked !== OTHER) return picked;
    // Typing instead of picking: ask for the id, not "person".
    message = o.message ?? `${label(field, false)}:`;
  }
  if (field.kind === 'enum' && field.choices) {
    const skip: Choice<unknown>[] = o.optional ? [{ name: 'None (the default)', value: SKIP }] : [];
    const v = await p.select<unknown>({ message, flag, choices: [...skip, ...field.choices.map((c) => ({ name: c, value: c }))] });
    return v === SKIP ? undefined : checked(op, field, v);
  }
  if (field.kind === 'boolean') return p.confirm({ message: message.replace(/:$/, '?'), flag });
  if (o.optional) message = `${message.replace(/:$/, '')} (empty for the default):`;
  const text = await p.input({ message, flag, validate: (s) => (o.optional && s.trim() === '' ? true : validateText(op, field, s)) });
  return o.optional && text.trim() === '' ? undefined : checked(op, field, text);
}

function label(field: FieldSpec, picked: boolean): string {
  // A record picked from a list is "person", not "person id".
  const key = picked ? field.key.replace(/_ids?$/, '') : field.key;
  const name = key.replace(/[._]/g, ' ');
  return field.description ? `${name} (${field.description})` : name;
}

export function validateText(op: Operation, field: FieldSpec, s: string): true | string {
  if (s.trim() === '') return `${field.key} is required`;
  const r = checkAnswer(op, field, s);
  return r.ok ? true : r.rule;
}

function checked(op: Operation, field: FieldSpec, raw: unknown): unknown {
  const r = checkAnswer(op, field, raw);
  // A select only offers valid values; a failure here is a table bug, and validation names it later.
  return r.ok ? r.value : raw;
}

async function selectFromAccount(ctx: Context, p: Prompter, op: Operation, field: FieldSpec, hint: PromptSource & { from: string }, message: string, o: AskOptions): Promise<unknown | typeof OTHER | typeof SKIP> {
  const loaded = await loadChoices(ctx, hint, o.given);
  if ('unavailable' in loaded) {
    ctx.debug(`prompt: no choices for ${field.key} (${loaded.unavailable}); asking for the value`);
    return OTHER;
  }
  // Values the flag would refuse (a deleted record's id, a wrong type) are not offered.
  const valid = loaded.choices.filter((c) => checkAnswer(op, field, String(c.value)).ok);
  if (!valid.length) {
    ctx.info(`No ${field.key.replace(/_ids?$/, '').replace(/_/g, ' ')} records to choose from; type the value.`);
    return OTHER;
  }
  const other: Choice<unknown> = { name: loaded.more ? 'Other (type the id; only the first 500 are listed)' : 'Other (type the id)', value: OTHER };
  const flag = `--${field.flag}`;
  if (field.kind !== 'array') {
    const skip: Choice<unknown>[] = o.optional ? [{ name: 'None (the default)', value: SKIP }] : [];
    const v = await p.select<unknown>({ message, flag, choices: [...skip, ...valid, other] });
    return v === OTHER || v === SKIP ? v : checked(op, field, String(v));
  }
  // Lists (label ids, team members): pick one at a time until the person says done.
  const picked: unknown[] = [];
  for (;;) {
    const left = valid.filter((c) => !picked.includes(c.value));
    const done: Choice<unknown> = { name: 'Done', value: DONE };
    const v = await p.select<unknown>({ message: picked.length ? `${message.replace(/:$/, '')} (another, or Done):` : message, flag, choices: picked.length ? [done, ...left] : [...left, other] });
    if (v === OTHER) return OTHER;
    if (v === DONE) break;
    picked.push(v);
    if (!left.length || left.length === 1) break;
  }
  return checked(op, field, picked.map(String).join(','));
}

const DONE = Symbol('done');
