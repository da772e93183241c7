/**
 * One engine for every long run that writes to (or reads from) an account and must survive a kill:
 * import, export, bulk-update now; backup, restore and undo later.
 *
 * A run has an id, a kind, the command line, the account it belongs to (src/runs/account.ts), its
 * input (a fingerprint: the file's content hash, the list query, the selection and changes), times
 * and a status. Its journal is an append-only, fsynced ndjson file (group commit, src/runs/journal.ts):
 *
 *   {"type":"run","v":2,"run_id":…,"kind":…,"command":[…],"account":{…},"input":{…},"started_at":…, …}
 *   {"key":"3","op":"create","status":"sending","at":…,"sent":{…the body as sent, names resolved…}}
 *   {"key":"3","status":"done","id":57}
 *   {"key":"12","op":"update","status":"sending","record":12,"sent":{…},"prior":{…values before…}}
 *   {"key":"filter:temp","op":"delete","status":"done","record":9,"deleted":{…}}
 *   {"type":"end","at":…,"summary":"1206 created, 0 failed","counts":{…}}
 *
 * Entries are keyed by an item key (an input line, a record id, later `kind:oldId`); "sending" is on
 * disk before the write goes out, the outcome after. What was sent, what it replaced and what was
 * deleted are in the journal, so an undo can be derived from the journal alone.
 *
 * The policy, the same for every kind (docs/reliability.md, "Runs"):
 * - `--resume` with no run at the journal's path: exit 2 naming the path;
 * - an unfinished run there, without `--resume`: exit 2 naming `--resume` and `--new-run`;
 * - a finished run there, same input: nothing is sent, exit 0, "already done at T: summary";
 * - a run of another account, or of another input (a changed file): never continued, exit 2 naming both;
 * - `--new-run`: a new run; the old journal is set aside under the config dir, its record kept.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Context } from '../core/context.js';
import { CancelledError, markResumable, UsageError } from '../core/errors.js';
import { accountOf, describeAccount, sameAccount } from './account.js';
import { removeIfExists } from '../fs/remove.js';
import { recordedCommand, recordedValue } from './command-line.js';
import { readRun, type ItemEntry, type RunEnd, type RunHeader, type RunInput, type WriteIntent } from './entries.js';
import { Journal } from './journal.js';
import { pruneRunsNow } from './prune.js';
import { recordingOn } from './recording.js';
import { readRecord, removeRecord, saveRecord, setAside, type RunKind, type RunRecord } from './registry.js';
import { whoOf, type McpCaller } from './who.js';
import { writtenCount } from './writes.js';

export type { RunKind } from './registry.js';
export { itemStates, readRun, runInput, type ItemEntry, type ItemState, type RunEnd, type RunHeader, type RunInput, type RunJournal, type WriteIntent } from './entries.js';

type Rec = Record<string, unknown>;

/** How messages name a run of each kind ("Import stopped", "Backup already done"). */
const KIND_LABEL: Record<RunKind, string> = { import: 'Import', export: 'Export', 'bulk-update': 'Bulk update', backup: 'Backup', restore: 'Restore', undo: 'Undo', normalize: 'Normalize', dedupe: 'Dedupe', command: 'Write', mcp: 'Tool call', upsert: 'Upsert', apply: 'Apply', destroy: 'Destroy' };

export interface OpenOptions {
  kind: RunKind;
  /** Where the journal is (kept where users expect it: `--state`, `<file>.import-state.json`). */
  journal: string;
  /** The command's input; undefined takes the journal's (bulk-update --resume without fields). */
  input: RunInput | undefined;
  resume: boolean;
  newRun: boolean;
  /** Checks the journal as a run would, and writes nothing. */
  dryRun?: boolean;
  /** The kind's own header fields (resource, file, format; area, selection, changes…). */
  header?: Rec;
  /** The flag that gives a run its own journal (`--state`), named in hints; none when the journal follows from another flag (export's `--out`). */
  journalFlag?: string;
  /** The sentence that says how the journal's input differs from this command's. */
  differs?: (journal: RunHeader, now: RunInput) => string;
  /**
   * Undoes what a run killed mid-way left in the account that is no part of its work (bulk-update's
   * temporary filter), before the journal is continued or set aside; only for the same account.
   */
  cleanup?: (header: RunHeader, entries: ItemEntry[], append: (e: ItemEntry) => Promise<void>) => Promise<void>;
  /** A finished run's journal is removed at its end (an incremental export's full pass: its state file is its record). */
  ephemeral?: boolean;
  /** The MCP client and tool that made this run (a tool call); otherwise who is derived (src/runs/who.ts). */
  mcp?: McpCaller;
  /** The client's count of cost units when the run's work began, if before `begin` (a single write's read of the record). */
  costSince?: number;
}

export type Opened =
  | { state: 'new'; run: Run }
  | { state: 'resume'; run: Run; entries: ItemEntry[] }
  | { state: 'done'; header: RunHeader; end: RunEnd };

const newId = () => globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 12);

/** Applies the policy to what the journal's path holds; prints the "already done" line itself. */
export async function openRun(ctx: Context, o: OpenOptions): Promise<Opened> {
  if (o.resume && o.newRun) throw new UsageError('--resume and --new-run: choose one (--resume continues the run in the journal, --new-run starts another)');
  const { header, items, end } = readRun(o.journal);
  const ownJournal = o.journalFlag ? `${o.journalFlag} FILE gives this one its own journal` : undefined;
  const start = async (): Promise<Opened> => {
    if (o.resume) throw new UsageError(`--resume: there is no ${o.kind} run to continue at ${o.journal}`, `Run the command without --resume to start one${o.journalFlag ? ` (${o.journalFlag} names another journal)` : ''}.`);
    // A new run learns its account when it begins (its header is written): a run refused before, or a dry run, sends no extra read.
    return { state: 'new', run: new Run(ctx, o, newHeader(o), false) };
  };
  if (!header) return start();
  const legacy = header.v !== 2 || !header.account;
  const cleanup = async () => {
    if (!o.cleanup || o.dryRun) return;
    let j: Journal | undefined;
    try {
      await o.cleanup(header, items, (e) => {
        if (!j) j = new Journal(o.journal);
        return j.append(e);
      });
    } finally {
      await j?.close();
    }
  };
  if (o.newRun) {
    if (!o.dryRun) {
      if (!legacy && sameAccount(header.account, await accountOf(ctx))) await cleanup();
      const kept = setAside(ctx.env, o.journal, String(header.run_id ?? 'legacy'));
      ctx.io.stderr.write(`The earlier run ${String(header.run_id ?? '')} is kept: its journal is now ${kept}.\n`);
    }
    return { ...(await start()), state: 'new' } as Opened;
  }
  if (legacy) {
    throw new UsageError(
      `${o.journal} was written by an earlier crmctl and does not say which account it belongs to; it is not continued`,
      'Finish it with the crmctl that started it, or start again with --new-run (the old journal is kept under the config dir).',
    );
  }
  if (header.kind !== o.kind) throw new UsageError(`${o.journal} is the journal of a ${header.kind} run, not of ${o.kind}`, o.journalFlag ? `Give this command its own journal (${o.journalFlag} FILE).` : '--new-run sets it aside and starts a new run.');
  const account = await accountOf(ctx);
  if (!sameAccount(header.account, account)) {
    throw new UsageError(
      `${o.resume ? '--resume: ' : ''}${o.journal} belongs to a ${o.kind} run (${header.run_id}) of ${describeAccount(header.account)}; this command acts on ${describeAccount(account)}. A journal is never continued against another account.`,
      `Continue it with the credentials of that account${o.journalFlag ? `, or give this run its own journal (${o.journalFlag} FILE)` : ''}, or --new-run to set the old journal aside.`,
    );
  }
  await cleanup();
  if (o.input && o.input.fingerprint !== header.input.fingerprint) {
    const why = o.differs?.(header, o.input) ?? `it holds ${header.input.describe}; this command is ${o.input.describe}`;
    throw new UsageError(
      `${o.resume ? '--resume: ' : ''}${o.journal} belongs to ${end ? 'a finished' : 'an unfinished'} ${o.kind} run (${header.run_id}, started ${header.started_at}): ${why}`,
      `--new-run starts a new run (the earlier run's record is kept)${ownJournal ? `, or ${ownJournal}` : ''}.`,
    );
  }
  if (end) {
    ctx.io.stderr.write(`${KIND_LABEL[o.kind]} already done at ${end.at}: ${end.summary} (run ${header.run_id}); nothing sent. --new-run to start again.\n`);
    return { state: 'done', header, end };
  }
  if (!o.resume && !o.dryRun) {
    throw new UsageError(
      `an unfinished ${o.kind} run (${header.run_id}, started ${header.started_at}, ${header.input.describe}) has its journal in ${o.journal}`,
      `Continue it with --resume (what it did is not done again), or start over with --new-run (the unfinished run's record is kept).`,
    );
  }
  const run = new Run(ctx, o, header, true);
  // Entries the clean-up appended are read again: the run continues from what is on disk.
  return { state: 'resume', run, entries: o.cleanup && !o.dryRun ? readRun(o.journal).items : items };
}

/**
 * A run that starts at once, with its journal in `dir` named by its id: a single write (a command, an
 * MCP tool call, an upsert) is never continued, so it needs no policy and no journal flag.
 */
export function startRun(ctx: Context, o: Omit<OpenOptions, 'journal' | 'resume' | 'newRun'> & { dir: string }): Run {
  const opts: OpenOptions = { ...o, journal: '', resume: false, newRun: false };
  const header = newHeader(opts);
  opts.journal = join(o.dir, `${header.run_id}.ndjson`);
  return new Run(ctx, opts, header, false);
}

/** A new run's header; its account and command line are filled in when it begins (src/runs/run.ts, Run.begin). */
function newHeader(o: OpenOptions): RunHeader {
  return {
    ...o.header,
    type: 'run',
    v: 2,
    run_id: newId(),
    kind: o.kind,
    command: [],
    account: { origin: '', company_id: null, user_id: null },
    input: o.input ?? { fingerprint: '', describe: '' },
    started_at: new Date().toISOString(),
  };
}

/** The "sending" entry of a write (src/runs/entries.ts, WriteIntent): its send time defaults to now. */
function sendingEntry(key: string, w: WriteIntent): ItemEntry {
  const { at, ...rest } = w;
  return { key, status: 'sending', at: at ?? Date.now(), ...rest };
}

/** What a run does with its journal and its record in the index. */
export class Run {
  private log: Pick<Journal, 'append' | 'close'> & Partial<Pick<Journal, 'appendLater' | 'appendAhead' | 'hurry'>> | undefined;
  /** CRMCTL_RECORD=off: no journal, no record (src/runs/recording.ts). */
  private readonly off: boolean;
  /** The client's count of cost units when the run began (what it spent is the difference at its end). */
  private costAt: number | undefined;
  /** What earlier tries of a resumed run spent (its record's cost). */
  private spentBefore = 0;
  private http: { governor: { stats: { acquired: number } } } | undefined;
  private stopRequested = false;
  private ended = false;
  private readonly signalHandlers: Array<[NodeJS.Signals, () => void]> = [];

  constructor(private readonly ctx: Context, private readonly o: OpenOptions, readonly header: RunHeader, private started: boolean) {
    this.off = !recordingOn(ctx.env);
  }

  get id(): string {
    return this.header.run_id;
  }

  get journal(): string {
    return this.o.journal;
  }

  /** Writes the header (a new run) and the run's record; entries may be appended after. */
  async begin(extra: Rec = {}): Promise<void> {
    if (this.log) return;
    Object.assign(this.header, extra);
    if (this.off) {
      this.log = { append: async () => {}, close: async () => {} };
      this.started = true;
      return;
    }
    // What the run spends is counted from here, by the one client (reads before writes included).
    const http = await this.ctx.http();
    this.costAt = this.o.costSince ?? http.governor.stats.acquired;
    this.spentBefore = readRecord(this.ctx.env, this.id)?.cost ?? 0;
    this.http = http;
    if (!this.started) {
      // A journal without its header (killed while writing it) announced nothing: start it anew.
      removeIfExists(this.o.journal);
    }
    if (!this.started) {
      this.header.account = await accountOf(this.ctx);
      // After the account: the credentials are loaded by then, so every secret this command knows is taken out.
      const secrets = this.ctx.knownSecrets();
      this.header.command = recordedCommand(this.ctx.argv, secrets);
      // The kind's own fields and the input in words are kept the same way: a journal outlives the run.
      for (const k of Object.keys({ ...this.o.header, ...extra })) this.header[k] = recordedValue(this.header[k], secrets);
      this.header.input = { ...this.header.input, describe: recordedValue(this.header.input.describe, secrets) };
    }
    if (!this.started) {
      mkdirSync(dirname(this.o.journal), { recursive: true, mode: 0o700 });
      // Rotation, at most once an hour, when a run begins (never the run beginning: it is not finished).
      try {
        pruneRunsNow(this.ctx.env);
      } catch (err) {
        this.ctx.debug(`runs: pruning old runs failed (${(err as Error).message})`);
      }
    }
    this.log = new Journal(this.o.journal);
    if (!this.started) await this.log.append(this.header);
    this.started = true;
    this.saveRecord({ status: 'running', who: whoOf(this.ctx, this.o.mcp), ...(this.o.mcp?.client ? { client: this.o.mcp.client } : {}), ...(this.o.mcp?.tool ? { tool: this.o.mcp.tool } : {}) });
  }

  /** What the run wrote and spent, for its record: `runs list` then reads no journal. */
  private tally(known?: number): Partial<RunRecord> {
    const spent = this.costAt !== undefined && this.http ? this.http.governor.stats.acquired - this.costAt : undefined;
    let written: number | undefined = known;
    try {
      // A kind that counts its own writes says so; else they are counted from the journal (read once, at the end).
      written ??= writtenCount(readRun(this.o.journal).items);
    } catch {
      written = undefined;
    }
    return { ...(written !== undefined ? { written } : {}), ...(spent !== undefined ? { cost: this.spentBefore + spent } : {}) };
  }

  append(entry: ItemEntry | Rec): Promise<void> {
    if (!this.log) throw new Error('internal: run entry before begin()');
    return this.log.append(entry);
  }

  /** Before a write is sent: on disk with what it sends and what it replaces (src/runs/entries.ts, WriteIntent). */
  sending(key: string, w: WriteIntent): Promise<void> {
    return this.append(sendingEntry(key, w));
  }

  /**
   * A write announced ahead of its turn (an import's look-ahead): on disk when the promise resolves, in a
   * sync shared with the entries around it; `hurry` once its turn comes and the caller waits for it.
   */
  sendingAhead(key: string, w: WriteIntent): Promise<void> {
    if (!this.log) throw new Error('internal: run entry before begin()');
    return this.log.appendAhead ? this.log.appendAhead(sendingEntry(key, w)) : this.log.append(sendingEntry(key, w));
  }

  /** Entries announced ahead are now waited for: sync them without waiting for more. */
  hurry(): void {
    this.log?.hurry?.();
  }

  /** An item settled: the new id of a create, `action`, `reconciled` when a look-up found it… */
  done(key: string, outcome: Rec = {}): Promise<void> {
    return this.append({ key, status: 'done', ...outcome });
  }

  /**
   * An item settled, its entry not waited for (on disk with the next entry that waits): for a kind whose
   * --resume looks an unsettled write up (import), so a kill -9 before the sync costs a look-up, never a
   * second write, and each row's send waits for one disk sync instead of two.
   */
  doneLater(key: string, outcome: Rec = {}): void {
    if (!this.log) throw new Error('internal: run entry before begin()');
    const entry = { key, status: 'done', ...outcome };
    if (this.log.appendLater) this.log.appendLater(entry);
    else void this.log.append(entry);
  }

  /** An item failed; `retry: true` when --resume may send it again (isPassing, or an outcome nobody knows). */
  failed(key: string, error: string, extra: Rec = {}): Promise<void> {
    return this.append({ key, status: 'failed', error, ...extra });
  }

  /** Every item settled: the end entry (then "already done" for the same command) and the record. */
  /** `written`: the records the run wrote, when the kind counts them itself (an import: its outcomes), so no journal is read again. */
  async finish(summary: string, counts: Rec = {}, written?: number): Promise<void> {
    const at = new Date().toISOString();
    await this.append({ type: 'end', at, summary, counts });
    this.ended = true;
    await this.close();
    this.saveRecord({ status: 'done', finished_at: at, summary, ...this.tally(written) });
    if (this.o.ephemeral) {
      removeIfExists(this.o.journal);
      removeRecord(this.ctx.env, this.id);
    }
  }

  /** Unfinished (stopped, budget spent, passing failures): the journal stays for --resume. */
  async pause(summary?: string): Promise<void> {
    await this.close();
    if (this.started && !this.ended) this.saveRecord({ status: 'stopped', ...(summary ? { summary } : {}), ...this.tally() });
  }

  /**
   * What a run that stops on an error throws: when its journal can be continued, the run is paused (its
   * record says stopped) and the error is marked so main adds the line that resumes it.
   */
  async stoppedBy(err: unknown): Promise<unknown> {
    if (!this.resumable) return err;
    await this.pause();
    return markResumable(err);
  }

  /** A journal is on disk and the run is not finished: the same command with --resume continues it. */
  get resumable(): boolean {
    return this.started && !this.ended;
  }

  /** Nothing was written (declined at the prompt): the journal and its record go. */
  async discard(): Promise<void> {
    await this.close();
    removeIfExists(this.o.journal);
    removeRecord(this.ctx.env, this.id);
  }

  async close(): Promise<void> {
    const log = this.log;
    this.log = undefined;
    await log?.close();
    this.unwatch();
  }

  /**
   * The one stop policy: SIGINT (Ctrl-C) and SIGTERM (`timeout`, a CI cancel, `docker stop`) stop
   * sending; the writes in flight finish and are journaled; the journal is kept and the message says
   * how to continue. A second signal of the same kind ends the process at once (Node's default).
   */
  watchSignals(what: string): void {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      const handler = () => {
        this.stopRequested = true;
        this.ctx.io.stderr.write(`\nStopping after the ${what} in flight (${sig}); the journal ${this.o.journal} is kept: run the same command with --resume to continue.\n`);
      };
      process.once(sig, handler);
      this.signalHandlers.push([sig, handler]);
    }
  }

  get stopping(): boolean {
    return this.stopRequested;
  }

  /** Stops sending (a spent daily budget), as a signal would. */
  requestStop(): void {
    this.stopRequested = true;
  }

  /** The error of a run stopped by a signal (exit 3). */
  stoppedError(summary: string, results?: string): CancelledError {
    return new CancelledError(`${KIND_LABEL[this.o.kind]} stopped: ${summary} so far${results ? `; results in ${results}` : ''}. Continue with --resume.`);
  }

  private unwatch(): void {
    for (const [sig, h] of this.signalHandlers.splice(0)) process.removeListener(sig, h);
  }

  private saveRecord(patch: Partial<RunRecord>): void {
    if (this.off) return;
    const h = this.header;
    const prev = readRecord(this.ctx.env, this.id);
    try {
      saveRecord(this.ctx.env, {
        id: h.run_id, kind: h.kind, command: h.command, account: h.account, journal: this.o.journal, input: h.input.describe, started_at: h.started_at,
        status: 'running', ...(prev ? { ...prev, journal: this.o.journal } : {}), ...patch,
      });
    } catch (err) {
      // The index is for finding runs later; a config dir that cannot be written must not stop the run itself.
      this.ctx.debug(`runs: the index record of run ${h.run_id} could not be written (${(err as Error).message})`);
    }
  }
}
