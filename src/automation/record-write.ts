/**
 * The record of a single write (issue 31.1): a generated or hand-written command, an MCP tool call or an
 * upsert that writes is a small run of the one engine (src/runs), kind `command`, `mcp` or `upsert`, with
 * one item `1` in its journal: "sending" with the operation, the record, the body as sent (secrets out)
 * and what it replaces (an update's prior values, a delete's whole record, read just before), fsynced
 * before the request; the outcome after. So `runs list`, `runs show`, `undo ID` and `undo --last` take
 * it as they take an import's rows, with no second mechanism.
 *
 * Every door that sends one write calls `recordedWrite` around its send (commands in
 * execute-operation.ts, MCP in call-tool.ts, upsert); runs that journal their own items (import, bulk
 * update, restore, undo, normalize, dedupe) call the operation directly and are not recorded twice.
 * It is not in `callOperation` (src/api, below the runs) because that call also serves those runs and
 * every read.
 */
import { join } from 'node:path';
import type { Envelope } from '../api/call.js';
import { operationEffect } from '../api/effect.js';
import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { AmbiguousWriteError, ApiError, CliError, NetworkError, NotFoundError } from '../core/errors.js';
import { read, type Prepared } from '../entry/prepare.js';
import { recordedValue } from '../runs/command-line.js';
import { recordingOn } from '../runs/recording.js';
import { runsDir } from '../runs/paths.js';
import { runInput, startRun } from '../runs/run.js';
import type { McpCaller } from '../runs/who.js';
import { priorValues } from './bulk-update-changes.js';

type Rec = Record<string, unknown>;

/** Which door sent the write: a command line, an MCP client's tool call, an upsert. */
export type WriteDoor = { kind: 'command' } | { kind: 'upsert' } | { kind: 'mcp'; mcp: McpCaller };

/** The one item key of a single write's journal. */
export const SINGLE_KEY = '1';

/** Where single writes keep their journals. */
export const writesDir = (env: NodeJS.ProcessEnv) => join(runsDir(env), 'writes');

const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Sends one write through `send`, recorded; a read, or CRMCTL_RECORD=off, is sent as it is. What the
 * prior-value read costs is spent through the same client (and counted in the run's cost).
 */
export async function recordedWrite<T extends { envelope: Envelope }>(ctx: Context, op: Operation, input: Prepared, door: WriteDoor, send: () => Promise<T>): Promise<T> {
  if (operationEffect(op) === 'read' || !recordingOn(ctx.env)) return send();
  const area = op.cli.command[0] ?? op.id;
  const what = await writeOf(op, input);
  const id = input.params.id as string | number | undefined;
  const secrets = () => ctx.knownSecrets();
  const sent = isRec(input.body) ? input.body : undefined;
  // What the record costs is counted from here: the read before the write is part of it.
  const costSince = (await ctx.http()).governor.stats.acquired;
  // Before the write: what it replaces. An update's fields as they are, a delete's whole record (what an undo creates again).
  let before: Rec | undefined;
  if ((what.op === 'update' || what.op === 'delete') && what.get && id !== undefined) before = await currentRecord(ctx, what.get, id);
  const describe = [...op.cli.command, ...Object.values(input.params).map(String)].join(' ');
  const run = startRun(ctx, {
    kind: door.kind,
    dir: writesDir(ctx.env),
    input: runInput({ op: op.id, params: input.params }, door.kind === 'mcp' ? `${door.mcp.tool ?? 'tool'}: ${describe}` : describe),
    header: { area, operation: op.id },
    costSince,
    ...(door.kind === 'mcp' ? { mcp: door.mcp } : {}),
  });
  // The record never stops a write: when the account cannot be read (a token without the base scope),
  // the write goes out unrecorded, and a write that then lands says so.
  let notRecorded: CliError | undefined;
  try {
    await run.begin();
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    notRecorded = err;
    await run.discard();
  }
  if (notRecorded) {
    const out = await send();
    ctx.warn(`this write was not recorded (crmctl undo cannot take it back): ${redactedMessage(notRecorded, secrets())}`);
    return out;
  }
  try {
    const intent: Rec = {
      op: what.op,
      kind: area,
      ...(what.op === 'call' ? { operation: op.id } : {}),
      ...(id !== undefined && what.op !== 'create' ? { record: id } : {}),
      ...(sent ? { sent: recordedValue(sent, secrets()) } : {}),
      ...(what.op === 'update' && before && sent ? { prior: recordedValue(priorValues(before, sent), secrets()) } : {}),
      ...(what.op === 'delete' && before ? { deleted: recordedValue(before, secrets()) } : {}),
    };
    await run.append({ key: SINGLE_KEY, status: 'sending', at: Date.now(), ...intent });
    let out: T;
    try {
      out = await send();
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      const unknown = mayHaveLanded(err);
      await run.failed(SINGLE_KEY, redactedMessage(err, secrets()), unknown ? { retry: true } : {});
      // An outcome nobody knows stays unsettled (the run stopped): an undo reads the record to settle it.
      if (unknown) await run.pause(`outcome unknown: ${err.message}`);
      else await run.finish(`failed: ${redactedMessage(err, secrets())}`);
      throw err;
    }
    const data = out.envelope.data;
    const newId = what.op === 'create' && isRec(data) && (typeof data.id === 'number' || typeof data.id === 'string') ? data.id : undefined;
    await run.done(SINGLE_KEY, newId !== undefined ? { id: newId } : {});
    await run.finish(what.op === 'call' ? `${describe}: sent` : summaryOf(what.op, area, newId ?? id));
    return out;
  } finally {
    await run.close();
  }
}

/** The write an operation is: its area's create, update or delete (what an undo can take back), else a call. */
async function writeOf(op: Operation, input: Prepared): Promise<{ op: 'create' | 'update' | 'delete' | 'call'; get?: Operation }> {
  // The shapes first, so most writes that are not record writes (followers, merges, conversions) load no other table.
  const shaped = op.method === 'POST' && !/\{[^}]+\}/.test(op.path) ? 'create' : op.method === 'DELETE' ? 'delete' : op.method === 'PATCH' || op.method === 'PUT' ? 'update' : 'call';
  if (shaped === 'call' || (shaped !== 'create' && input.params.id === undefined)) return { op: 'call' };
  const { recordOps } = await import('./undo-plan.js');
  const ops = recordOps(op.cli.command[0] ?? '');
  const mine = ops[shaped];
  // The undo takes a create back with the area's delete and sets an update back with the area's update: only those are theirs.
  if (!mine || mine.id !== op.id || !ops.get) return { op: 'call' };
  return { op: shaped, get: ops.get };
}

/** The record as it is before the write; undefined when it cannot be read (then the journal keeps no prior values). */
async function currentRecord(ctx: Context, get: Operation, id: string | number): Promise<Rec | undefined> {
  try {
    const rec = await read(ctx, get, { params: { id: String(id) } });
    return isRec(rec) ? rec : undefined;
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    // Gone already: the write will say so itself.
    if (err instanceof NotFoundError) return undefined;
    ctx.debug(`record: ${get.id} ${id} could not be read before the write (${err.message}); its prior values are not kept`);
    return undefined;
  }
}

/** A write that may have landed though no answer said so: cut off after sending, or a 5xx. */
function mayHaveLanded(err: CliError): boolean {
  return err instanceof AmbiguousWriteError || err instanceof NetworkError || (err instanceof ApiError && err.status >= 500);
}

function redactedMessage(err: CliError, secrets: readonly string[]): string {
  return recordedValue(err.message, secrets);
}

function summaryOf(op: string, area: string, id: unknown): string {
  const verb = op === 'create' ? 'created' : op === 'update' ? 'updated' : 'deleted';
  return `${area} ${id !== undefined ? `${String(id)} ` : ''}${verb}`;
}
