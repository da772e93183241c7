import type { Operation } from '../api/operation.js';
import { operationById } from '../api/operations/index.js';
import type { OperationRef, OptionSpec, TreeNode } from '../core/command.js';
import { ERROR_CODES } from '../core/errors.js';
import { EXIT_DESCRIPTIONS } from '../core/exit-codes.js';
import { GLOBAL_FLAGS } from '../core/global-flags.js';
import { VERSION } from '../core/version.js';
import type { FieldSpec } from '../input/fields.js';
import { operationFields } from '../input/operation-input.js';
import { flatten } from './tree.js';

/**
 * The command tree as `crmctl commands --json` prints it, for programs and agents that work through the
 * shell. Built from the same specs as --help, docs/commands/ and the completions. Every key is always
 * present (null or [] when there is nothing), so the shape is the same for every command; docs/agents.md
 * describes it and test/ux/agents.test.ts holds it to docs/command-tree.schema.json.
 */
export const COMMANDS_SCHEMA_VERSION = 1;

export type FlagType = 'switch' | 'boolean' | 'integer' | 'number' | 'string' | 'enum' | 'array' | 'json';

export interface FlagJson {
  /** The long name as typed: `--title`. */
  name: string;
  short: string | null;
  type: FlagType;
  /** The placeholder shown in help (`text`, `n`, `key=value...`); null for a switch. */
  value_name: string | null;
  enum: string[] | null;
  required: boolean;
  repeatable: boolean;
  default: unknown;
  description: string;
}

export interface CommandJson {
  path: string[];
  /** The full command line prefix: `crmctl deals list`. */
  command: string;
  aliases: string[];
  summary: string;
  description: string | null;
  /** False for a group (`crmctl deals`), which only lists its commands. */
  runnable: boolean;
  args: Array<{ name: string; required: boolean; variadic: boolean; description: string }>;
  flags: FlagJson[];
  examples: string[];
  operations: Array<{ id: string; method: string; path: string; cost: number | null; scopes: string[]; beta: boolean; deprecated: { since: string; out_of_support: string; use: string | null } | null }>;
  /** Record fields accepted by --fields. */
  fields: string[];
}

export interface CommandsJson {
  schema_version: number;
  program: 'crmctl';
  version: string;
  global_flags: FlagJson[];
  exit_codes: Array<{ code: number; name: string; meaning: string }>;
  error_codes: Array<{ code: string; exit_code: number; meaning: string }>;
  commands: CommandJson[];
}

/** The document for a node and everything under it (the root: every command). */
export function commandsJson(node: TreeNode): CommandsJson {
  return {
    schema_version: COMMANDS_SCHEMA_VERSION,
    program: 'crmctl',
    version: VERSION,
    global_flags: GLOBAL_FLAGS.map((g) => flagJson({ flags: g.flags, description: g.description, choices: g.choices })),
    exit_codes: EXIT_DESCRIPTIONS.map((e) => ({ code: e.code, name: e.name, meaning: e.meaning })),
    error_codes: ERROR_CODES.map((e) => ({ code: e.code, exit_code: e.exit_code, meaning: e.meaning })),
    commands: flatten(node).filter((n) => n.path.length > 0).map(commandJson),
  };
}

export function commandJson(node: TreeNode): CommandJson {
  const spec = node.spec;
  const ops = spec?.operations ?? [];
  const fields = fieldsByFlag(ops);
  const options = spec ? (spec.options ?? []).filter((o) => !o.hidden) : node.options.map((o) => ({ flags: o.flags, description: o.description, choices: o.choices }));
  return {
    path: node.path,
    command: ['crmctl', ...node.path].join(' '),
    aliases: node.aliases,
    summary: node.summary,
    description: spec?.description ?? null,
    runnable: Boolean(spec),
    args: spec
      ? (spec.args ?? []).map((a) => ({ name: a.name, required: a.required !== false, variadic: Boolean(a.variadic), description: a.description }))
      : node.args.map((a) => ({ name: a.name, required: a.required, variadic: false, description: '' })),
    flags: options.map((o) => flagJson(o, fields)),
    examples: spec?.examples ?? [],
    operations: ops.map(operationJson),
    fields: spec?.fields ?? [],
  };
}

function operationJson(op: OperationRef): CommandJson['operations'][number] {
  const d = op.deprecated;
  return { id: op.id, method: op.method, path: op.path, cost: op.cost, scopes: [...op.scopes], beta: Boolean(op.beta), deprecated: d ? { since: d.since, out_of_support: d.outOfSupport, use: d.use ?? null } : null };
}

/** The input fields behind a generated command's flags (`--title` → the body's title), first operation first. */
function fieldsByFlag(refs: readonly OperationRef[]): Map<string, FieldSpec> {
  const out = new Map<string, FieldSpec>();
  const ops = refs.map((r) => operationById(r.id)).filter((op): op is Operation => op !== undefined);
  for (const op of ops) for (const f of operationFields(op).fields) if (!out.has(`--${f.flag}`)) out.set(`--${f.flag}`, f);
  return out;
}

/**
 * One flag. Its type and whether it is required come from what declares them: the option itself when it
 * says (a typed OptionSpec), else the operation's field the flag fills, else the flag's placeholder.
 */
export function flagJson(o: Pick<OptionSpec, 'flags' | 'description' | 'choices' | 'defaultValue' | 'repeatable'>, fields: ReadonlyMap<string, FieldSpec> = new Map()): FlagJson {
  const m = /^(?:(-[a-zA-Z]),\s*)?(--[a-zA-Z0-9-]+)(?:\s+([<[])([^>\]]+)[>\]])?/.exec(o.flags.trim());
  const name = m?.[2] ?? o.flags;
  const valueName = m?.[4] ?? null;
  const field = fields.get(name);
  const declared = o as { type?: unknown; required?: unknown };
  const choices = o.choices ? [...o.choices] : field?.choices ? [...field.choices] : null;
  const type = typeof declared.type === 'string' && isFlagType(declared.type) ? declared.type : field && !field.valueList ? field.kind : fromPlaceholder(valueName, choices);
  return {
    name,
    short: m?.[1] ?? null,
    type: valueName === null ? 'switch' : type,
    value_name: valueName,
    enum: choices,
    required: typeof declared.required === 'boolean' ? declared.required : field ? field.required : /(^|[;(,]\s*)required\b/.test(o.description),
    repeatable: Boolean(o.repeatable) || Boolean(valueName?.endsWith('...')),
    default: o.defaultValue ?? null,
    description: o.description,
  };
}

const FLAG_TYPES: readonly string[] = ['switch', 'boolean', 'integer', 'number', 'string', 'enum', 'array', 'json'];
function isFlagType(t: string): t is FlagType {
  return FLAG_TYPES.includes(t);
}

/** What a placeholder says when nothing else does: `[bool]`, `<n>`, `<list>`, `<json>`, else text. */
function fromPlaceholder(valueName: string | null, choices: string[] | null): FlagType {
  if (choices) return 'enum';
  if (valueName === 'bool') return 'boolean';
  if (valueName === 'n') return 'integer';
  if (valueName === 'list') return 'array';
  if (valueName === 'json') return 'json';
  return 'string';
}
