import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import type { Prompter } from '../core/prompter.js';
import { getPath as get, setPath } from '../input/coerce.js';
import { fieldsOf, type FieldSpec } from '../input/fields.js';
import { askable, firstRuleGap, isMissing, setInput, type Inputs as QueryAndBody } from '../input/missing-inputs.js';
import { askField } from './ask.js';

/**
 * Prompting for what a command line left out, on a terminal only (the caller checks ctx.canPrompt;
 * off a TTY validation names the missing flags instead). Loaded on the first prompt, never at start-up.
 */

/** Rounds of "validate, ask what a rule still misses": bounded so a rule no answer can satisfy cannot loop. */
const MAX_RULE_ROUNDS = 6;

interface Inputs extends QueryAndBody {
  params?: Record<string, unknown>;
}

function givenLookup(fields: FieldSpec[], input: Inputs): (key: string) => unknown {
  return (key) => {
    if (input.params && key in input.params) return input.params[key];
    const f = fields.find((x) => x.key === key);
    if (!f) return undefined;
    return get(f.location === 'query' ? input.query : input.body, f.path);
  };
}

/**
 * Asks for every required input no flag gave, then validates and asks for what a cross-field rule
 * still misses (a lead's person or organization, a value's currency once an amount is given), offering
 * the alternatives a table's `prompts[key].or` names. Rules broken by values that were given are
 * left to validation, which names the flag.
 */
export async function promptMissingInputs(ctx: Context, op: Operation, fields: FieldSpec[], input: Inputs): Promise<void> {
  const given = givenLookup(fields, input);
  let p: Prompter | undefined;
  const prompter = async () => (p ??= await ctx.prompter());
  const asked = new Set<string>();
  for (const f of fields.filter((x) => x.required && askable(x) && isMissing(input, x))) {
    setInput(input, f, await askField(ctx, await prompter(), op, f, { given }));
    asked.add(f.key);
  }
  // Optional inputs the table says are worth asking (a deal's pipeline, then a stage of it).
  for (const key of op.cli.ask ?? []) {
    const f = fields.find((x) => x.key === key);
    if (!f || !askable(f) || !isMissing(input, f)) continue;
    const v = await askField(ctx, await prompter(), op, f, { given, optional: true });
    if (v !== undefined) setInput(input, f, v);
    asked.add(f.key);
  }
  for (let round = 0; round < MAX_RULE_ROUNDS; round++) {
    const gap = firstRuleGap(op, fields, input, asked);
    if (!gap) return;
    const target = { field: gap.field, rule: ruleText(gap.issue.message) };
    let f = target.field;
    const alternatives = (op.cli.prompts?.[f.key]?.or ?? [])
      .map((k) => fields.find((x) => x.key === k))
      .filter((x): x is FieldSpec => Boolean(x) && askable(x!) && isMissing(input, x!));
    if (alternatives.length) {
      const key = await (await prompter()).select<string>({
        message: `${choiceQuestion(f, target.rule)} Which will you give?`,
        flag: [f, ...alternatives].map((x) => `--${x.flag}`).join(' or '),
        choices: [f, ...alternatives].map((x) => ({ name: x.key.replace(/_id$/, '').replace(/_/g, ' '), value: x.key, description: `--${x.flag}` })),
      });
      f = [f, ...alternatives].find((x) => x.key === key)!;
    }
    setInput(input, f, await askField(ctx, await prompter(), op, f, { given }));
    asked.add(f.key);
  }
}

function ruleText(message: string): string {
  // zod's own "Invalid input: expected number, received undefined" says only that it is missing.
  return /^Invalid input/.test(message) ? 'this is required' : message;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The rule as a sentence for a person at a prompt: flag advice ("give --x or --y") is dropped, the field named when the rule does not. */
function choiceQuestion(f: FieldSpec, rule: string): string {
  const plain = rule
    .replace(/[:;]\s*(give|use)\b.*--.*$/, '')
    .replace(/\s*\((give|use)\b[^)]*\)/g, '')
    .replace(/\s*\([^)]*--[^)]*\)/g, '')
    .trim();
  const sentence = /^(is|must|needs|cannot)\b/.test(plain) ? `${f.key.replace(/_/g, ' ')} ${plain}` : plain;
  return `${capitalize(sentence)}.`;
}

/** A path parameter no argument gave: a select from the account when the table names a list, else typed and checked. */
export async function askArg(ctx: Context, op: Operation, name: string, params: Record<string, unknown>): Promise<unknown> {
  const asQuery = { ...op, query: op.params, body: undefined } as Operation;
  const field: FieldSpec = fieldsOf(op.params, 'query').find((f) => f.key === name) ?? { key: name, path: [name], flag: name, location: 'query', kind: 'string', required: true, nullable: false };
  return askField(ctx, await ctx.prompter(), asQuery, { ...field, flag: name }, { given: (k) => params[k], message: `${name.replace(/_/g, ' ')}:` });
}

/**
 * An update with no field given: on a terminal, ask which field to change and its new value
 * (instead of failing with "nothing to update"). Returns the body.
 */
export async function askChange(ctx: Context, op: Operation, fields: FieldSpec[], params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  const candidates = fields.filter((f) => f.location === 'body' && askable(f));
  const p = await ctx.prompter();
  const key = await p.select<string>({
    message: 'What do you want to change?',
    flag: candidates.map((f) => `--${f.flag}`).join(', '),
    choices: candidates.map((f) => ({ name: f.key.replace(/[._]/g, ' '), value: f.key, description: f.description })),
  });
  const f = candidates.find((x) => x.key === key)!;
  const input: Inputs = { params, query: {}, body };
  setPath(body, f.path, await askField(ctx, p, op, f, { given: givenLookup(fields, input) }));
  return body;
}
