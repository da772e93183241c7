import { pathParamNames, type Operation } from '../api/operation.js';
import type { CommandSpec, OptionSpec } from '../core/command.js';
import type { Context } from '../core/context.js';
import { flag, flagOptions, parseFlags, type FlagSet, type FlagValues } from '../core/flags.js';
import { UsageError, ValidationError } from '../core/errors.js';
import { coerceField, setPath } from '../input/coerce.js';
import type { FieldSpec } from '../input/fields.js';
import { jsonSchemaOf } from '../input/json-schema.js';
import { clearableKeys, operationFields, validateParams, type RawInput, type ValidInput } from '../input/operation-input.js';
import { readJsonInput } from '../input/sources.js';
import { pagingFlags, pagingOptions, type RunHooks } from './run-operation.js';
// Static: the bundle puts the run path in the same chunk as this module (scripts/lib/chunk-groups.mjs),
// so an import() would only add a file to load.
import { executeOperation, namedView, prepare } from './execute-operation.js';

/**
 * What an area adds to a generated command: flags the table cannot express (flags that send null,
 * KEY=VALUE lists) folded into the input before it is validated, and a different presentation. Rules
 * that read the account are the operation's (src/api/checks/), so every door runs them. The command
 * stays generated: its flags, help and docs come from the table.
 */
export interface CommandExtension {
  summary?: string;
  examples?: string[];
  options?: OptionSpec[];
  /** Folds the extra flags into the collected input; runs before validation, so the schemas check the result. */
  adjust?: (ctx: Context, raw: RawInput, opts: Record<string, unknown>) => RawInput | Promise<RawInput>;
  present?: RunHooks['present'];
  /** How this call shows its records (decided per call: a table may name ids that json keeps as they are). */
  view?: (ctx: Context, op: Operation) => CallView | undefined;
  /** Turns a failure into a more helpful one (e.g. a 403 that only global admins escape). */
  explain?: (err: unknown, opts: Record<string, unknown>) => unknown;
  /** Said after the call (a side effect on another record); its reads are listed in the help's Calls. */
  after?: { calls: Operation[]; run(ctx: Context, input: ValidInput): Promise<void> };
}

/**
 * An extension as written: its own flags described once (core/flags.ts) and hooks that receive them
 * typed. `tableOpts` holds the generated (table) flags as commander gave them, for the few hooks that
 * check one of those against their own (`--content-file` against `--content`).
 */
export interface ExtensionDefinition<F extends FlagSet> extends Omit<CommandExtension, 'options' | 'adjust' | 'explain'> {
  flags?: F;
  adjust?: (ctx: Context, raw: RawInput, flags: FlagValues<F>, tableOpts: Record<string, unknown>) => RawInput | Promise<RawInput>;
  explain?: (err: unknown, flags: FlagValues<F>) => unknown;
}

/** A CommandExtension from typed flags: options for help and docs, values parsed once before the hooks run. */
export function extension<F extends FlagSet = Record<never, never>>(def: ExtensionDefinition<F>): CommandExtension {
  const { flags, adjust, explain, ...rest } = def;
  const declared = (flags ?? {}) as F;
  return {
    ...rest,
    options: flagOptions(declared),
    ...(adjust ? { adjust: (ctx: Context, raw: RawInput, opts: Record<string, unknown>) => adjust(ctx, raw, parseFlags(declared, opts), opts) } : {}),
    ...(explain ? { explain: (err: unknown, opts: Record<string, unknown>) => explain(err, parseFlags(declared, opts)) } : {}),
  };
}

/** Presentation of one call: records mapped for display and the columns to show. */
export interface CallView {
  present: NonNullable<RunHooks['present']>;
  columns: string[];
  /** Columns the presentation adds, accepted by --fields beside the service's fields. */
  derived?: string[];
  /** One record shown whole (a get): every custom field by name is a column too (named-view.ts). */
  allCustomFields?: boolean;
  /** Query parameters the read takes for this presentation (a person's include_labels); a flag given wins. */
  query?: Record<string, unknown>;
}

function optionFor(f: FieldSpec): OptionSpec {
  if (f.valueList) {
    const what = f.description ?? f.key.replace(/[._]/g, ' ');
    const notes = [what, `a value (repeat the flag for more${f.valueList.primary ? '; the first is primary' : ''}) or JSON, @file or - for stdin`, f.required ? 'required' : undefined];
    return { flags: `--${f.flag} <value>`, description: notes.filter(Boolean).join('; '), repeatable: true };
  }
  const placeholder = f.kind === 'boolean' ? '[bool]' : f.kind === 'array' ? '<list>' : f.kind === 'json' ? '<json>' : f.choices ? '<value>' : f.kind === 'string' ? '<text>' : '<n>';
  // Without a written description, say what the field is and what it takes.
  const what = f.description ?? `${f.location === 'query' ? 'filter: ' : ''}${f.key.replace(/[._]/g, ' ')}`;
  const takes =
    f.kind === 'array' ? `comma-separated ${f.itemKind === 'integer' ? 'integers' : 'values'}` : f.kind === 'json' ? 'JSON, @file or - for stdin' : f.kind === 'integer' ? 'integer' : f.kind === 'number' ? 'number' : f.kind === 'boolean' ? 'true|false' : undefined;
  const notes = [what, f.description ? undefined : takes, f.required ? 'required' : undefined].filter(Boolean);
  return { flags: `--${f.flag} ${placeholder}`, description: notes.join('; '), choices: f.kind === 'enum' ? f.choices : undefined, repeatable: f.kind === 'array' };
}

export function isUpdate(op: Operation): boolean {
  return op.method === 'PATCH' || op.method === 'PUT';
}

/** The flags of one operation: its inputs, then --data/--unset and the paging flags. */
export function operationOptions(op: Operation): OptionSpec[] {
  const { fields } = operationFields(op);
  const nullable = clearableKeys(op);
  const options: OptionSpec[] = fields.map(optionFor);
  const { file, data, unset, field, names } = rowFlags(op, nullable);
  if (op.cli.upload) options.unshift(...flagOptions({ file }));
  if (op.body && !op.cli.upload) options.push(...flagOptions({ data }));
  if (isUpdate(op) && nullable.length) options.push(...flagOptions({ unset }));
  if (op.body && op.cli.customFields) options.push(...flagOptions({ field }));
  if (!op.body && op.cli.customFields) options.push(...flagOptions({ names }));
  if (op.pagination !== 'none') {
    const { limit, all, start, cursor } = pagingFlags(op.maxLimit);
    options.push(...flagOptions(op.pagination === 'offset' ? { limit, all, start } : { limit, all, cursor }));
  }
  return options;
}

/**
 * The flags a generated command has beside its fields, described once with the typed builders:
 * operationOptions declares those the row calls for, collectFlags and runFromFlags read them back typed
 * (renaming a key renames the flag, and a read of the old name stops compiling). Paging: pagingFlags.
 */
export function rowFlags(op: Operation, nullable: string[]) {
  return {
    /** A row that uploads (`cli.upload`): the file to send. Checked by prepareUpload, which names the rule. */
    file: flag.string({ value: 'path', description: 'the file to send (- reads stdin); required' }),
    data: flag.string({ value: 'json', description: 'request body as JSON, @file or - for stdin; flags override its fields' }),
    unset: flag.csv({ value: 'fields', description: `clear these fields (sent as null): ${nullable.join(', ')}` }),
    /** A write of a record with custom fields: values by field name. */
    field: flag.list({ value: 'NAME=VALUE', description: `a ${op.cli.customFields} custom field by name, checked against its type (repeat for more), e.g. --field "Lead score=40"; an empty value clears it` }),
    /** A read of records with custom fields: json/ndjson keyed by field names. */
    names: flag.bool({ description: 'custom fields under their names with option labels (json, ndjson); see docs/custom-fields.md' }),
  };
}

/** Command spec generated from one operation row (Stripe's NewOperationCmd), optionally extended. */
export function commandFromOperation(op: Operation, ext: CommandExtension = {}): CommandSpec {
  // Path parameters straight from the path: the flags (JSON Schema of every field) are worked out
  // only when this command is wired or documented, not for each command of an area at start-up.
  const args = op.cli.args ?? pathParamNames(op.path);
  // An extension's flag replaces the generated flag of the same name (its adjust() fills that input).
  const replaced = new Set((ext.options ?? []).map(attribute));
  return withLazyOptions(
    {
      path: op.cli.command,
      summary: (ext.summary ?? op.cli.summary) + (op.beta ? ' (beta)' : '') + (op.deprecated ? ' (v1, out of support)' : ''),
      description: op.cli.description,
      examples: ext.examples ?? op.cli.examples,
      args: args.map((a) => ({ name: a, description: op.cli.help?.[a] ?? `${a.replace(/_/g, ' ')} (path parameter)`, required: false })),
      operations: [op, ...(ext.after?.calls ?? [])],
      fields: op.cli.fields,
      run: (ctx, input) => runFromFlags(ctx, op, input.args, input.opts, ext),
    },
    () => [...operationOptions(op).filter((o) => !replaced.has(attribute(o))), ...(ext.options ?? [])],
  );
}

/** A spec whose `options` are computed on first read (and kept). */
function withLazyOptions(spec: Omit<CommandSpec, 'options'>, compute: () => OptionSpec[]): CommandSpec {
  let options: OptionSpec[] | undefined;
  return Object.defineProperty(spec, 'options', { get: () => (options ??= compute()), enumerable: true }) as CommandSpec;
}

/** `--limit <n>` → `limit`: the attribute commander stores the option under. */
function attribute(o: OptionSpec): string {
  return camel(/--([a-z0-9-]+)/i.exec(o.flags)![1]!);
}

/**
 * One command for operations that do the same job in two forms (v2 and v1): the primary form by
 * default, another with its switch flag (`cli.switch`). Flags of every form are offered; a flag the
 * chosen form does not know is refused (exit 2) instead of being dropped silently.
 */
export function switchedCommand(primary: Operation, alternates: Operation[], ext: CommandExtension = {}): CommandSpec {
  const forms = [primary, ...alternates].map((op) => ({ op, spec: commandFromOperation(op, op === primary ? ext : {}) }));
  let ownCache: Map<Operation, Set<string>> | undefined;
  const own = () => (ownCache ??= new Map(forms.map((f) => [f.op, new Set((f.spec.options ?? []).map(attribute))])));
  const switches = alternates.map((a) => ({ op: a, flag: a.cli.switch!, attr: camel(a.cli.switch!.replace(/^--/, '')) }));
  const flagOf = (attr: string) => `--${attr.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  const first = forms[0]!.spec;
  return withLazyOptions({
    path: first.path,
    summary: first.summary,
    args: first.args,
    description: switches.map((s) => `${s.flag} calls ${s.op.method} ${s.op.path} instead of ${primary.method} ${primary.path}${s.op.deprecated ? `: a v1 endpoint out of support since ${s.op.deprecated.outOfSupport} (deprecated ${s.op.deprecated.since}); without ${s.flag} the command uses v2` : ''}.`).join('\n'),
    examples: [...new Set(forms.flatMap((f) => f.op === primary ? f.spec.examples : f.op.cli.examples))],
    operations: forms.map((f) => f.op),
    fields: [...new Set(forms.flatMap((f) => f.op.cli.fields ?? []))],
    async run(ctx, { args, opts }) {
      const on = switches.filter((s) => opts[s.attr]);
      if (on.length > 1) throw new ValidationError([{ field: on[1]!.flag, rule: `cannot be combined with ${on[0]!.flag}` }]);
      const op = on[0]?.op ?? primary;
      const known = own().get(op)!;
      const switchAttrs = new Set(switches.map((s) => s.attr));
      const wrong = Object.keys(opts).filter((k) => !switchAttrs.has(k) && opts[k] !== undefined && !known.has(k));
      if (wrong.length) {
        throw new ValidationError(wrong.map((k) => ({ field: flagOf(k), rule: on[0] ? `not available with ${on[0].flag} (only in ${primary.path})` : `only with ${switches.find((s) => own().get(s.op)!.has(k))?.flag ?? 'another form'}` })));
      }
      const rest = Object.fromEntries(Object.entries(opts).filter(([k]) => !switchAttrs.has(k)));
      await runFromFlags(ctx, op, args, rest, op === primary ? ext : {});
    },
  }, () => {
    // Flags of every form; an enum flag both forms have offers the choices of both.
    const merged = new Map<string, OptionSpec>();
    for (const o of forms.flatMap((f) => f.spec.options ?? [])) {
      const key = attribute(o);
      const prev = merged.get(key);
      if (!prev) merged.set(key, o);
      else if (prev.choices && o.choices) merged.set(key, { ...prev, choices: [...new Set([...prev.choices, ...o.choices])] });
    }
    return [...merged.values(), ...switches.map((s) => ({ flags: s.flag, description: `use the other form: ${s.op.cli.summary}${s.op.deprecated ? ` (out of support since ${s.op.deprecated.outOfSupport})` : ''}` }))];
  });
}

/** A generated command's run: flags → input → (prompts) → the entry (keys, schemas, account checks) → call → output. */
async function runFromFlags(ctx: Context, op: Operation, argv: string[], opts: Record<string, unknown>, ext: CommandExtension): Promise<void> {
  try {
    const { file, names } = parseFlags(rowFlags(op, []), opts);
    let raw = await collectFlags(ctx, op, argv, opts, new Set((ext.options ?? []).map(attribute)));
    // A bad path argument is named before anything else is asked or checked.
    validateParams(op, raw.params);
    if (ext.adjust) raw = await ext.adjust(ctx, raw, opts);
    await promptForGaps(ctx, op, raw);
    // The presentation is decided before the call: it may refuse a --fields (exit 2, nothing sent) or ask for more in the read.
    const own = ext.view?.(ctx, op);
    if (own?.query) raw = { ...raw, query: { ...own.query, ...raw.query } };
    const input = await prepare(ctx, op, raw).catch(async (err: unknown) => {
      // Off a terminal nothing was asked: name every input left out in one error, not one per run.
      if (ctx.canPrompt || !(err instanceof ValidationError)) throw err;
      throw (await import('../input/missing-inputs.js')).withEveryMissing(err, op, operationFields(op).fields, raw);
    });
    const upload = op.cli.upload ? await (await import('../input/upload.js')).prepareUpload(ctx, op.cli.upload, file) : undefined;
    try {
      const view = op.cli.customFields ? await namedView(ctx, op, names, own) : own;
      await executeOperation(ctx, op, input, { present: view?.present ?? ext.present, columns: view?.columns, derived: view?.derived, paging: op.pagination !== 'none' ? pagingOptions(opts) : undefined, upload: upload?.file });
      if (ext.after) await ext.after.run(ctx, input);
    } finally {
      upload?.cleanup();
    }
  } catch (err) {
    if (op.cli.customFields && isUnknownFieldRefusal(err)) await (await import('../names/catalog.js')).forgetFields(ctx, op.cli.customFields);
    throw ext.explain ? ext.explain(err, opts) : err;
  }
}

/** A 400 naming a custom field the service does not know: the cached field names are stale (renamed or deleted elsewhere). */
function isUnknownFieldRefusal(err: unknown): boolean {
  const e = err as { status?: unknown; message?: unknown; body?: unknown };
  return e?.status === 400 && /custom field|custom_fields/i.test(`${String(e.message)} ${JSON.stringify(e.body ?? '')}`);
}

/** The input a command line gives: positional args, --data, typed flags and --unset. Nothing is checked yet. */
export async function collectFlags(ctx: Context, op: Operation, argv: string[], opts: Record<string, unknown>, skip: ReadonlySet<string> = new Set()): Promise<RawInput> {
  const { fields } = operationFields(op);
  const params = await collectParams(ctx, op, argv);
  const nullable = clearableKeys(op);
  const { data, unset, field } = parseFlags(rowFlags(op, nullable), opts);
  let body: unknown;
  if (data !== undefined) {
    body = await readJsonInput(ctx.io.stdin, data, '--data');
    // An array or a bare value where the operation takes an object: name --data, not "body".
    const wantsObject = op.body !== undefined && jsonSchemaOf(op.body).type === 'object';
    if (wantsObject && (body === null || typeof body !== 'object' || Array.isArray(body))) {
      throw new ValidationError([{ field: '--data', rule: `must be a JSON object of the body's fields (got ${Array.isArray(body) ? 'an array' : JSON.stringify(body)})` }]);
    }
  }
  const query: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = skip.has(camel(f.flag)) ? undefined : opts[camel(f.flag)];
    if (raw === undefined) continue;
    const value = f.valueList ? await readValueList(ctx, f, raw) : f.kind === 'json' ? await readJsonInput(ctx.io.stdin, String(raw), `--${f.flag}`) : coerceField(f, raw);
    if (f.location === 'query') query[f.key] = value;
    else {
      if (body === undefined || body === null || typeof body !== 'object') body = {};
      setPath(body as Record<string, unknown>, f.path, value);
    }
  }
  if (field.length && op.cli.customFields) {
    // Named custom values go to the entry as `fields` (the entry translates them, for every door).
    const { parseAssignments } = await import('../names/write.js');
    const { named, issues } = parseAssignments(field, '--field');
    if (issues.length) throw new ValidationError(issues);
    if (body === undefined || body === null || typeof body !== 'object') body = {};
    const b = body as Record<string, unknown>;
    b.fields = { ...(b.fields && typeof b.fields === 'object' ? (b.fields as Record<string, unknown>) : {}), ...named };
  }
  if (unset !== undefined) {
    const allowed = nullable;
    for (const name of unset) {
      const key = allowed.find((a) => a === name || a.replace(/_/g, '-') === name);
      if (!key) throw new ValidationError([{ field: '--unset', rule: `${name} cannot be cleared; clearable: ${allowed.join(', ')}` }]);
      if (body === undefined || body === null || typeof body !== 'object') body = {};
      (body as Record<string, unknown>)[key] = null;
    }
  }
  return { params, query, body };
}

/**
 * A value-list flag (`--emails a@b.c --emails c@d.e`): each plain value becomes `{ value }`, JSON
 * (an array, an object, @file or -) is taken as written; the first plain value is primary unless an
 * item already says which one is.
 */
async function readValueList(ctx: Context, f: FieldSpec, raw: unknown): Promise<unknown> {
  const items: unknown[] = [];
  let plain = 0;
  for (const text of (Array.isArray(raw) ? raw : [raw]).map(String)) {
    if (/^\s*[[{]/.test(text) || text.startsWith('@') || text === '-') {
      const json = await readJsonInput(ctx.io.stdin, text, `--${f.flag}`);
      items.push(...(Array.isArray(json) ? json : [json]));
    } else {
      items.push({ value: text });
      plain++;
    }
  }
  const claimed = items.some((i) => i !== null && typeof i === 'object' && 'primary' in i);
  if (f.valueList?.primary && plain && !claimed) {
    const first = items.find((i) => i !== null && typeof i === 'object') as Record<string, unknown>;
    first.primary = true;
  }
  return items;
}

/**
 * Path parameters from positional arguments, in order; a missing one is asked for on a terminal (a
 * select from the account where the table names a list) and named otherwise (exit 2).
 */
export async function collectParams(ctx: Context, op: Operation, argv: string[]): Promise<Record<string, string>> {
  const { args } = operationFields(op);
  const params: Record<string, string> = {};
  for (const [i, name] of args.entries()) {
    let v: unknown = argv[i];
    if (v === undefined || v === '') {
      if (!ctx.canPrompt) throw new UsageError(`missing argument <${name}>`, `Usage: crmctl ${op.cli.command.join(' ')} ${args.map((a) => `<${a}>`).join(' ')}`);
      v = await (await import('../prompts/missing.js')).askArg(ctx, op, name, params);
    }
    params[name] = String(v);
  }
  return params;
}

/**
 * On a terminal, asks for what the command line left out (an update's change, required inputs, a
 * rule's missing half); elsewhere an update with nothing to change is named, and validation names
 * every other missing flag.
 */
async function promptForGaps(ctx: Context, op: Operation, raw: RawInput): Promise<void> {
  const { fields } = operationFields(op);
  if (op.body && raw.body === undefined && isUpdate(op) && !op.cli.optionalBody) {
    if (!ctx.canPrompt) throw new UsageError(`nothing to update: give at least one of ${fields.filter((f) => f.location === 'body').map((f) => `--${f.flag}`).join(', ')}`);
    raw.body = await (await import('../prompts/missing.js')).askChange(ctx, op, fields, raw.params);
  }
  if (op.body && raw.body === undefined) raw.body = {};
  if (!ctx.canPrompt) return;
  const { promptMissingInputs } = await import('../prompts/missing.js');
  await promptMissingInputs(ctx, op, fields, raw);
}

export function camel(flag: string): string {
  return flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export type { RawInput };
