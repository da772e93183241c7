/**
 * How `runs list` and `runs show` present a run: the record of the index (src/runs/registry.ts) and
 * its journal as rows. Loaded by the area's index for --fields, so it imports nothing heavy.
 */
import { shellLine } from '../../core/shell-quote.js';
import { describeAccount } from '../../runs/account-words.js';
import { itemStates, type ItemEntry } from '../../runs/entries.js';
import type { RunRecord } from '../../runs/registry.js';
import { describeWho } from '../../runs/who.js';
import { writtenCount } from '../../runs/writes.js';

export const LIST_FIELDS = ['id', 'started_at', 'kind', 'who', 'account', 'command', 'written', 'cost', 'status', 'summary', 'finished_at', 'input', 'client', 'tool', 'journal'];
export const LIST_COLUMNS = ['id', 'started_at', 'kind', 'who', 'account', 'command', 'written', 'cost', 'status'];
export const ITEM_FIELDS = ['key', 'op', 'record', 'status', 'action', 'id', 'error'];
export const SHOW_FIELDS = [...LIST_FIELDS, 'items'];

/**
 * One run as `runs list` prints it: the command line as typed (secrets already out), who or what ran it,
 * the records it wrote and what it cost. `items` is read only for a record that does not keep its count
 * (one of an earlier crmctl, or a run still going or killed).
 */
export function runRow(r: RunRecord, items: () => readonly ItemEntry[]): Record<string, unknown> {
  return {
    id: r.id,
    started_at: r.started_at,
    kind: r.kind,
    who: describeWho(r) || null,
    account: describeAccount(r.account),
    command: r.kind === 'mcp' ? `(mcp) ${r.input}` : shellLine(['crmctl', ...r.command]),
    written: r.written ?? writtenCount(items()),
    cost: r.cost ?? null,
    status: r.status,
    summary: r.summary ?? null,
    finished_at: r.finished_at ?? null,
    input: r.input,
    client: r.client ?? null,
    tool: r.tool ?? null,
    journal: r.journal,
  };
}

/** What became of each item of a run's journal (a run's own bookkeeping, its selection, left out). */
export function itemRows(items: readonly ItemEntry[]): Array<Record<string, unknown>> {
  return [...itemStates(items).values()].filter((s) => s.key !== 'selection').map((s) => {
    const e = s.last;
    const id = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? v : null);
    return {
      key: s.key,
      op: s.write?.op ?? e.op ?? null,
      record: id(s.write?.record ?? e.record),
      status: s.unsettled ? 'unsettled' : e.status,
      action: typeof e.action === 'string' ? e.action : null,
      id: id(e.id),
      error: typeof e.error === 'string' ? e.error : null,
    };
  });
}
