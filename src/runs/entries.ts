/**
 * What a run's journal holds, and how it reads: the header, one entry per item event, the end. Every
 * kind writes the same entries (src/runs/run.ts writes them) and reads them back the same way here, so
 * `--resume`, a later `runs show` and an undo (from the journal alone) agree on what a run did.
 */
import type { AccountIdentity } from './account.js';
import { canonical, hashOf } from './fingerprint.js';
import { Journal } from './journal.js';

type Rec = Record<string, unknown>;

/**
 * `command`, `mcp` and `upsert` are single writes (one record, one item `1`): a generated or hand-written
 * command, an MCP tool call, an upsert, each recorded as a small run of its own; `apply` and `destroy`
 * record each of their writes as an item of one run (src/automation/record-write.ts).
 */
export type RunKind = 'import' | 'export' | 'bulk-update' | 'backup' | 'restore' | 'undo' | 'normalize' | 'dedupe' | 'command' | 'mcp' | 'upsert' | 'apply' | 'destroy';

/** What a run was started on: compared before a journal is continued. */
export interface RunInput {
  fingerprint: string;
  /** In words, for messages and `runs list`: `leads from leads.csv`. */
  describe: string;
}

/** A run's input: what it was started on (any JSON value: the same values in another key order are the same input) and how messages name it. */
export function runInput(what: unknown, describe: string): RunInput {
  return { fingerprint: hashOf(canonical(what)), describe };
}

export interface RunHeader extends Rec {
  type: 'run';
  v: 2;
  run_id: string;
  kind: RunKind;
  /** The command line as typed, secrets redacted (src/runs/command-line.ts). */
  command: string[];
  account: AccountIdentity;
  input: RunInput;
  started_at: string;
}

export interface RunEnd extends Rec {
  type: 'end';
  at: string;
  summary: string;
}

/** One item's entry: "sending" before its write, the outcome after. */
export interface ItemEntry extends Rec {
  key: string;
  status: 'sending' | 'done' | 'failed';
  /** `call`: a write that is no create, update or delete of a record (a follower added, a merge): kept, not undone. */
  op?: 'create' | 'update' | 'delete' | 'read' | 'call';
}

/**
 * A write about to go out (`Run.sending`): on disk before it is sent. `sent` is the body as sent (names
 * resolved to ids, markers in: what a look-up after a kill compares, issue 28.2); `record` the id it
 * writes to (an update, a delete); `prior` the values an update replaces and `deleted` what a delete
 * removes (what an undo puts back). A kind adds its own members (`kind`, `old_id` for a restore).
 */
export interface WriteIntent extends Rec {
  op: 'create' | 'update' | 'delete';
  record?: string | number;
  sent?: Rec;
  prior?: Rec;
  deleted?: Rec;
  /** The send time (ms), when the caller needs it too (the look-up's lower bound); default now. */
  at?: number;
}

/** Where one item stands after every entry of the journal was read. */
export interface ItemState {
  key: string;
  /** Its latest entry. */
  last: ItemEntry;
  /**
   * The write may have landed and nobody knows: left in "sending" by a kill, or failed on a passing
   * error (`retry`). `--resume` looks it up (with `write.sent`) before it sends it again.
   */
  unsettled: boolean;
  /** The last write announced for it (op, record, sent, prior…), if any. */
  write?: ItemEntry;
  /** When the unsettled write was first sent (ms): a look-up reads what was added since. */
  since?: number;
}

/**
 * Folds a journal's item entries into one state per key, in the order keys first appear. Settled
 * items (`done`, or `failed` without `retry`) keep their outcome in `last`.
 */
export function itemStates(entries: readonly ItemEntry[]): Map<string, ItemState> {
  const out = new Map<string, ItemState>();
  for (const e of entries) {
    const s = out.get(e.key) ?? { key: e.key, last: e, unsettled: false };
    const at = typeof e.at === 'number' ? e.at : undefined;
    if (e.status === 'sending') s.write = e;
    s.unsettled = e.status === 'sending' || (e.status === 'failed' && e.retry === true);
    if (!s.unsettled) s.since = undefined;
    else if (at !== undefined) s.since = Math.min(s.since ?? at, at);
    s.last = e;
    out.set(e.key, s);
  }
  return out;
}

/** A journal as read: its header (absent when none was written whole), its item entries, its end. */
export interface RunJournal {
  header?: RunHeader;
  items: ItemEntry[];
  end?: RunEnd;
}

export function readRun(path: string): RunJournal {
  const all = Journal.read(path);
  return {
    header: all.find((e) => e.type === 'run') as RunHeader | undefined,
    items: all.filter((e): e is ItemEntry => typeof e.key === 'string'),
    end: all.find((e) => e.type === 'end') as RunEnd | undefined,
  };
}
