import type { PageOptions } from '../api/entry-types.js';
import type { Operation, OperationInput } from '../api/operation.js';
import type { Context } from '../core/context.js';
import type { Prepared } from '../entry/prepare.js';
import { flag, parseFlags } from '../core/flags.js';
import type { RawInput } from '../input/operation-input.js';
import type { RunHooks } from './execute-operation.js';

export type { RunHooks } from './execute-operation.js';

/**
 * Runs one operation with typed input, the way a hand-written command calls it: the one entry
 * (`prepare`: unknown keys, the schemas, the operation's account checks; exit 2 naming the field,
 * nothing sent), then confirmation of destructive operations, the call (paged when the operation is)
 * and the output.
 */
export async function runOperation<O extends Operation>(ctx: Context, op: O, input: OperationInput<O>, hooks: RunHooks = {}): Promise<void> {
  await executeOperation(ctx, op, await prepareTyped(ctx, op, input), hooks);
}

/** Typed input of a hand-written command through the one entry. */
export async function prepareTyped<O extends Operation>(ctx: Context, op: O, input: OperationInput<O>): Promise<Prepared> {
  const { prepare } = await import('../entry/prepare.js');
  return prepare(ctx, op, toRaw(input));
}

/** Calls one operation with typed input and returns its records (`data`, unwrapped); nothing is printed. */
export async function fetchOperation<O extends Operation>(ctx: Context, op: O, input: OperationInput<O>): Promise<unknown> {
  const { read } = await import('../entry/prepare.js');
  return read(ctx, op, toRaw(input));
}

/** Calls one operation with typed input and returns the whole answer (for what the service sends beside `data`). */
export async function fetchEnvelope<O extends Operation>(ctx: Context, op: O, input: OperationInput<O>): Promise<import('../api/call.js').Envelope> {
  const valid = await prepareTyped(ctx, op, input);
  const [http, { callOperation }] = await Promise.all([ctx.http(), import('../api/call.js')]);
  return (await callOperation(http, op, valid)).envelope;
}

function toRaw(input: unknown): RawInput {
  const i = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  return { params: i.params ?? {}, query: i.query ?? {}, body: i.body };
}

/** After the entry: confirm, send, render (execute-operation.ts, loaded once a command runs). */
export async function executeOperation(ctx: Context, op: Operation, input: Prepared, hooks: RunHooks = {}): Promise<void> {
  return (await import('./execute-operation.js')).executeOperation(ctx, op, input, hooks);
}

/**
 * The paging flags of a list command, described once: operationOptions declares `limit`, `all` and
 * the one of `start`/`cursor` its pagination uses; pagingOptions reads them back checked.
 */
export function pagingFlags(maxLimit = 500) {
  return {
    limit: flag.int({ min: 1, description: `at most this many records (page size up to ${maxLimit})` }),
    all: flag.bool({ description: 'follow every page' }),
    start: flag.int({ min: 0, description: 'start from this position (resume)' }),
    cursor: flag.string({ value: 'cursor', description: 'start from this position (resume)' }),
  };
}

/** --limit/--all/--start/--cursor of a list command, checked. */
export function pagingOptions(opts: Record<string, unknown>): PageOptions {
  const { limit, all, start, cursor } = parseFlags(pagingFlags(), opts);
  return { limit, all, from: start !== undefined ? String(start) : cursor };
}
