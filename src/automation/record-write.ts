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
import { AmbiguousWriteError, ApiError, AuthError, CliError, NetworkError, NotFoundError } from '../core/errors.js';
import { read, type Prepared } from '../entry/prepare.js';
import { recordedValue } from '../runs/command-line.js';
import { recordingOn } from '../runs/recording.js';
import { runsDir } from '../runs/paths.js';
import { runInput, startRun, type Run } from '../runs/run.js';
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

/** One write about to be recorded: what it is, and what it replaces (read just before it). */
interface PlannedWrite {
  op: Operation;
  what: { op: 'create' | 'update' | 'delete' | 'call'; get?: Operation };
  area: string;
  id: string | number | undefined;
  sent: Rec | undefined;
  before: Rec | undefined;
  describe: string;
}

async function planWrite(ctx: Context, op: Operation, input: Prepared): Promise<PlannedWrite> {
  const what = await writeOf(op, input);
  const id = input.params.id as string | number | undefined;
  // Before the write: what it replaces. An update's fields as they are, a delete's whole record (what an undo creates again).
  const before = (what.op === 'update' || what.op === 'delete') && what.get && id !== undefined ? await currentRecord(ctx, what.get, id) : undefined;
  return {
    op, what, id, before,
    area: op.cli.command[0] ?? op.id,
    sent: isRec(input.body) ? input.body : undefined,
    describe: [...op.cli.command, ...Object.values(input.params).map(String)].join(' '),
  };
}

/**
 * Sends one planned write as item `key` of `run`: "sending" (on disk) with what it sends and replaces,
 * then its outcome. A failure is recorded and thrown; `unknown` tells whether it may have landed.
 */
async function sendRecorded<T extends { envelope: Envelope }>(ctx: Context, run: Run, key: string, w: PlannedWrite, send: () => Promise<T>): Promise<{ out: T; newId?: string | number } | { err: CliError; unknown: boolean }> {
  const secrets = ctx.knownSecrets();
  const intent: Rec = {
    op: w.what.op,
    kind: w.area,
    ...(w.what.op === 'call' ? { operation: w.op.id } : {}),
    ...(w.id !== undefined && w.what.op !== 'create' ? { record: w.id } : {}),
    ...(w.sent ? { sent: recordedValue(w.sent, secrets) } : {}),
    ...(w.what.op === 'update' && w.before && w.sent ? { prior: recordedValue(priorValues(w.before, w.sent), secrets) } : {}),
    ...(w.what.op === 'delete' && w.before ? { deleted: recordedValue(w.before, secrets) } : {}),
  };
  await run.append({ key, status: 'sending', at: Date.now(), ...intent });
  let out: T;
  try {
    out = await send();
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    const unknown = mayHaveLanded(err);
    await run.failed(key, redactedMessage(err, ctx.knownSecrets()), unknown ? { retry: true } : {});
    return { err, unknown };
  }
  const data = out.envelope.data;
  const newId = w.what.op === 'create' && isRec(data) && (typeof data.id === 'number' || typeof data.id === 'string') ? data.id : undefined;
  await run.done(key, newId !== undefined ? { id: newId } : {});
  return newId !== undefined ? { out, newId } : { out };
}

/**
 * Begins a recording run. A permission the record lacks never stops a write: when the account cannot be
 * read (a token without the base scope), the writes go out unrecorded (undefined), and the caller says
 * so once one lands. Any other failure (a redirect, the service down) stops the command before its
 * write, as the write itself would fail.
 */
async function begun(run: Run): Promise<{ run: Run } | { notRecorded: CliError }> {
  try {
    await run.begin();
    return { run };
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    await run.discard();
    return { notRecorded: err };
  }
}

const notRecordedNote = (ctx: Context, err: CliError, several: boolean) =>
  ctx.warn(`${several ? 'these writes were' : 'this write was'} not recorded (crmctl undo cannot take ${several ? 'them' : 'it'} back): ${redactedMessage(err, ctx.knownSecrets())}`);

/**
 * Sends one write through `send`, recorded; a read, or CRMCTL_RECORD=off, is sent as it is. What the
 * prior-value read costs is spent through the same client (and counted in the run's cost).
 */
export async function recordedWrite<T extends { envelope: Envelope }>(ctx: Context, op: Operation, input: Prepared, door: WriteDoor, send: () => Promise<T>): Promise<T> {
  if (operationEffect(op) === 'read' || !recordingOn(ctx.env)) return send();
  // What the record costs is counted from here: the read before the write is part of it.
  const costSince = (await ctx.http()).governor.stats.acquired;
  const w = await planWrite(ctx, op, input);
  const started = await begun(startRun(ctx, {
    kind: door.kind,
    dir: writesDir(ctx.env),
    input: runInput({ op: op.id, params: input.params }, door.kind === 'mcp' ? `${door.mcp.tool ?? 'tool'}: ${w.describe}` : w.describe),
    header: { area: w.area, operation: op.id },
    costSince,
    ...(door.kind === 'mcp' ? { mcp: door.mcp } : {}),
  }));
  if ('notRecorded' in started) {
    const out = await send();
    notRecordedNote(ctx, started.notRecorded, false);
    return out;
  }
  const { run } = started;
  try {
    const r = await sendRecorded(ctx, run, SINGLE_KEY, w, send);
    if ('err' in r) {
      // An outcome nobody knows stays unsettled (the run stopped): an undo reads the record to settle it.
      if (r.unknown) await run.pause(`outcome unknown: ${r.err.message}`);
      else await run.finish(`failed: ${redactedMessage(r.err, ctx.knownSecrets())}`);
      throw r.err;
    }
    await run.finish(w.what.op === 'call' ? `${w.describe}: sent` : summaryOf(w.what.op, w.area, r.newId ?? w.id));
    return r.out;
  } finally {
    await run.close();
  }
}

/** How a run of several writes sends each one: recorded as an item of its run (src/automation/record-write.ts, WriteRecorder). */
export type RecordedSend = <T extends { envelope: Envelope }>(op: Operation, input: Prepared, send: () => Promise<T>) => Promise<T>;

/**
 * The record of a command that sends several writes of its own choosing (`apply`, `destroy`): one run
 * (kind apply or destroy) whose items are its writes in order, each recorded as a single write is (what
 * it sends, the fields it replaces, the record it deletes), so `crmctl undo` takes the whole command back.
 * The run begins with its first write (a plan with nothing to send leaves no run).
 */
export class WriteRecorder {
  private run: Run | undefined;
  private notRecorded: CliError | undefined;
  private items = 0;
  private unknown: CliError | undefined;
  private readonly on: boolean;

  constructor(private readonly ctx: Context, private readonly o: { kind: 'apply' | 'destroy'; describe: string; input: unknown; header?: Rec }) {
    this.on = recordingOn(ctx.env);
  }

  /** The send every write of the command goes through. */
  readonly send: RecordedSend = async (op, input, send) => {
    if (!this.on || operationEffect(op) === 'read' || this.notRecorded) return send();
    const costSince = this.run ? undefined : (await this.ctx.http()).governor.stats.acquired;
    const w = await planWrite(this.ctx, op, input);
    if (!this.run) {
      const started = await begun(startRun(this.ctx, { kind: this.o.kind, dir: writesDir(this.ctx.env), input: runInput(this.o.input, this.o.describe), header: this.o.header ?? {}, ...(costSince !== undefined ? { costSince } : {}) }));
      if ('notRecorded' in started) {
        this.notRecorded = started.notRecorded;
        const out = await send();
        notRecordedNote(this.ctx, started.notRecorded, true);
        return out;
      }
      this.run = started.run;
    }
    const r = await sendRecorded(this.ctx, this.run, String(++this.items), w, send);
    if ('err' in r) {
      if (r.unknown) this.unknown ??= r.err;
      throw r.err;
    }
    return r.out;
  };

  /** The run's id, once a write began it. */
  get id(): string | undefined {
    return this.run?.id;
  }

  /**
   * The command ended (`failure`: the error it stopped on): the run is finished, or left stopped when a
   * write's outcome is unknown (an undo reads the record to settle it).
   */
  async end(summary: string, failure?: unknown): Promise<void> {
    const run = this.run;
    if (!run) return;
    try {
      if (this.unknown) await run.pause(`outcome unknown: ${this.unknown.message}`);
      else if (failure === undefined) await run.finish(summary);
      else await run.finish(`stopped: ${redactedMessage(failure instanceof CliError ? failure : new CliError(String((failure as Error)?.message ?? failure)), this.ctx.knownSecrets())}`);
    } finally {
      await run.close();
    }
  }
}

/** The write an operation is: its area's create, update or delete (what an undo can take back), else a call. */
async function writeOf(op: Operation, input: Prepared): Promise<{ op: 'create' | 'update' | 'delete' | 'call'; get?: Operation }> {
  // The shapes first, so most writes that are not record writes (followers, merges, conversions) load no other table.
  const shaped = op.method === 'POST' && !/\{[^}]+\}/.test(op.path) ? 'create' : op.method === 'DELETE' ? 'delete' : op.method === 'PATCH' || op.method === 'PUT' ? 'update' : 'call';
  if (shaped === 'call' || (shaped !== 'create' && input.params.id === undefined)) return { op: 'call' };
  const { recordOps } = await import('./record-ops.js');
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
    // Anything but a permission refusal (a redirect, the service down) stops the command before its write.
    if (!(err instanceof AuthError)) throw err;
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
