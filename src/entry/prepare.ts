import { ValidationError } from '../core/errors.js';
import type { HttpPort } from '../core/http-port.js';
import { operationFields, validateInput, type RawInput, type ValidInput } from '../input/operation-input.js';
import { jsonSchemaOf, propertiesOf } from '../input/json-schema.js';
import { unknownKeys } from '../input/unknown-keys.js';
import { callOperation, paginate, recordsOf } from '../api/call.js';
import type { CheckReader, PageOptions, Prepared, Reader } from '../api/entry-types.js';

export type { CheckReader, Prepared, Reader } from '../api/entry-types.js';
import { accountCheckOf } from '../api/checks/index.js';
import type { Operation } from '../api/operation.js';

type Issue = { field: string; rule: string };

export function readerOf(http: HttpPort, debug: (line: string) => void = () => {}): Reader {
  return { http: async () => http, debug };
}

export interface PrepareOptions {
  /**
   * How issues name an input: `flags` as a command line gives it (`--label-ids`, `<id>`, `--data` for
   * an unknown key), `keys` as the operation names it (`label_ids`, `id`; an unknown key under `container`).
   */
  naming?: 'flags' | 'keys';
  /** With `keys`: what holds the keys (`arguments` of an MCP call, `spec` of a fixture, `row` of an import). */
  container?: string;
  /** How a refusal names a custom value given by name under `fields` (an import names the column: `Segment`). */
  fieldLabel?: (name: string) => string;
}

/**
 * The one entry to an operation: unknown keys refused (naming the nearest known one), the zod
 * schemas, then the operation's account checks (reads only). Every caller — generated and
 * hand-written commands, prompts, MCP, import, export, apply/destroy — goes through here, so a rule
 * is enforced the same way at every door. A refusal is a ValidationError (exit 2), nothing sent.
 */
export async function prepare(reader: Reader, op: Operation, raw: Partial<RawInput>, opts: PrepareOptions = {}): Promise<Prepared> {
  let input: RawInput = { params: raw.params ?? {}, query: raw.query ?? {}, body: raw.body };
  // Top-level keys that pass as they are: the hash keys the translation placed there (v1 leads).
  let allow: (key: string) => boolean = () => false;
  // Custom values given by field name become hash keys first (src/names), at this one entry of every door.
  // Only a body carries them: a read (a plain list) does not load the translation.
  const names = op.cli.customFields && isBody(input.body) ? await import('../names/entry.js') : undefined;
  if (names?.hasNamedFields(op, input)) {
    const t = await names.translateNamedFields(checkReader(reader), op, input, opts.naming ?? 'flags', opts.container, reader, opts.fieldLabel);
    input = t.raw;
    if (t.topKeys.size) allow = (k) => t.topKeys.has(k);
  }
  // Filter conditions by field name (`where`, `or_where`) become the condition tree, at the same entry.
  if (givesWhere(input) && declaresWhere(op)) {
    input = await (await import('../names/conditions.js')).conditionsFromNames(checkReader(reader), input, opts.naming ?? 'flags', opts.container);
  }
  const issues: Issue[] = [];
  const unknown = [
    ...unknownKeys(op.query, input.query).map((u) => ({ ...u, where: 'query' })),
    ...(strictAtTop(op.body) ? [] : unknownKeys(op.body, input.body, allow).map((u) => ({ ...u, where: 'body' }))),
  ];
  for (const u of unknown) issues.push({ field: opts.naming === 'keys' ? (opts.container ?? u.where) : u.where === 'body' ? '--data' : 'query', rule: u.rule });

  let valid: ValidInput | undefined;
  try {
    valid = validateWithExtras(op, input, allow);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    issues.push(...rename(op, err.issues, opts));
  }
  if (issues.length || !valid) throw new ValidationError(issues);

  const check = await accountCheckOf(op);
  if (check) {
    try {
      await check(checkReader(reader), op, valid);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      throw new ValidationError(rename(op, err.issues, opts), err.hint);
    }
  }
  return valid as Prepared;
}

/** The records of one read, through the entry (memoised on the reader when it keeps a memo). */
export async function read(reader: Reader, op: Operation, raw: Partial<RawInput> = {}): Promise<unknown> {
  return memoised(reader, op, raw, 'one', async () => {
    const input = await prepare(reader, op, raw);
    const { envelope } = await callOperation(await reader.http(), op, input);
    return recordsOf(op, envelope);
  });
}

/** Every record of a list, page by page, through the entry (collected once per reader when it keeps a memo). */
export async function* readAll(reader: Reader, op: Operation, raw: Partial<RawInput> = {}, paging: PageOptions = { all: true }): AsyncGenerator<unknown> {
  if (reader.memo) {
    yield* (await memoised(reader, op, raw, JSON.stringify(paging), async () => {
      const out: unknown[] = [];
      for await (const r of paginate(await reader.http(), op, await prepare(reader, op, raw), paging)) out.push(r);
      return out;
    })) as unknown[];
    return;
  }
  yield* paginate(await reader.http(), op, await prepare(reader, op, raw), paging);
}

function memoised(reader: Reader, op: Operation, raw: Partial<RawInput>, how: string, load: () => Promise<unknown>): Promise<unknown> {
  if (!reader.memo) return load();
  const key = `${op.id} ${how} ${JSON.stringify([raw.params ?? {}, raw.query ?? {}, raw.body ?? null])}`;
  let hit = reader.memo.get(key);
  if (!hit) {
    hit = load();
    reader.memo.set(key, hit);
    hit.catch(() => reader.memo?.delete(key));
  }
  return hit;
}

function isBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

function givesWhere(input: RawInput): boolean {
  const b = input.body as Record<string, unknown> | undefined;
  return typeof b === 'object' && b !== null && (b.where !== undefined || b.or_where !== undefined);
}

/** The operation's body takes conditions by name (`where`): the filter writes' schema says so, no id list. */
function declaresWhere(op: Operation): boolean {
  return op.body !== undefined && 'where' in (propertiesOf(jsonSchemaOf(op.body)) ?? {});
}

/** zod with the admitted extra keys set aside (the schema would drop them) and put back after. */
function validateWithExtras(op: Operation, input: RawInput, allow: (key: string) => boolean): ValidInput {
  const body = input.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return validateInput(op, input);
  const extras: Record<string, unknown> = {};
  const core: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) (allow(k) ? extras : core)[k] = v;
  if (!Object.keys(extras).length) return validateInput(op, input);
  const valid = validateInput(op, { ...input, body: core });
  return { ...valid, body: { ...(valid.body as Record<string, unknown>), ...extras } };
}

/**
 * A body refused whole by its own schema when a key is unknown (z.strictObject, with a message that
 * says why a key cannot be set): that message is the one shown, not the generic one.
 */
function strictAtTop(schema: Operation['body']): boolean {
  const def = (schema as { _zod?: { def?: { catchall?: { _zod?: { def?: { type?: string } } } } } } | undefined)?._zod?.def;
  return def?.catchall?._zod?.def?.type === 'never';
}

/** Issues named as a command line names them (`--flag`, `<id>`), renamed to the operation's keys when asked. */
function rename(op: Operation, issues: ReadonlyArray<Issue>, opts: PrepareOptions): Issue[] {
  if (opts.naming !== 'keys') return [...issues];
  return issues.map((i) => ({ ...i, field: keyName(op, i.field, opts.container) }));
}

/** `--value-amount` → `value.amount`, `<id>` → `id`, `body.x` → `x`, `--data` → the container. */
export function keyName(op: Operation, field: string, container = 'body'): string {
  const arg = /^<(.+)>$/.exec(field);
  if (arg) return arg[1]!;
  if (field === '--data') return container;
  const names = field.split(', ');
  const { fields } = operationFields(op);
  return names
    .map((n) => fields.find((x) => `--${x.flag}` === n)?.key ?? n.replace(/^--/, '').replace(/^(query|body)\./, '').replace(/-/g, '_'))
    .join(', ');
}

/** The reader an account check gets: the caller's, plus reads through this entry. */
export function checkReader(reader: Reader): CheckReader {
  return {
    http: () => reader.http(),
    debug: (line) => reader.debug(line),
    ...(reader.credentials ? { credentials: () => reader.credentials!() } : {}),
    ...(reader.memo ? { memo: reader.memo } : {}),
    read: (op, raw) => read(reader, op, raw),
    readAll: (op, raw, paging) => readAll(reader, op, raw, paging),
  };
}
