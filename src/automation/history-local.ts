/**
 * The local side of `crmctl history`: what crmctl's runs of this account wrote to one record, read
 * only through the run engine (the index of runs, each run's writes), so a new kind of run shows up
 * with nothing more than a word for its door below.
 */
import type { AccountIdentity } from '../runs/account.js';
import { listRecords, loadRun, type RunRecord } from '../runs/registry.js';
import { runWrites } from '../runs/writes.js';
import type { LocalWrite } from './history-merge.js';
import { areaOf } from './undo-plan.js';

/** The door a kind of run is, in words; a kind not named here is shown as itself. */
const DOORS: Record<string, string> = {
  import: 'import',
  'bulk-update': 'bulk update',
  restore: 'restore',
  undo: 'undo',
  normalize: 'normalize',
  dedupe: 'dedupe',
  command: 'command',
  mcp: 'MCP',
};

/** A run's door, with the client or tool that drove it when its record names one (an MCP client). */
export function doorOf(r: RunRecord): string {
  const door = DOORS[r.kind] ?? r.kind;
  const rec = r as unknown as Record<string, unknown>;
  const client = rec.client ?? rec.mcp_client;
  return typeof client === 'string' && client ? `${door} (${client})` : door;
}

/** What the runs of one account wrote, loaded once, asked per record. */
export interface LocalRecord {
  /** Every field each run wrote to `kind` `id`, with the run's window (oldest run first). */
  writesTo(kind: string, id: string): LocalWrite[];
}

/** Reads every run of this account once (their records and journals, through the run engine). */
export function localRecord(env: NodeJS.ProcessEnv, account: AccountIdentity, now = Date.now()): LocalRecord {
  const all: Array<{ kind: string | undefined; id: string; write: LocalWrite }> = [];
  for (const record of listRecords(env, account).reverse()) {
    const loaded = loadRun(env, record.id);
    if (!loaded) continue;
    const runArea = loaded.journal.header ? areaOf(loaded.journal.header) : undefined;
    const from = Date.parse(record.started_at);
    const to = record.finished_at ? Date.parse(record.finished_at) : now;
    const base = { run: record.id, door: doorOf(record), from, to };
    for (const w of runWrites(loaded.journal.items)) {
      if (w.record === null) continue;
      const at = { kind: w.kind ?? runArea, id: String(w.record) };
      if (w.op !== 'update') {
        // A create or delete whose outcome nobody knows is not claimed; an unsettled update may be, when the log shows its value.
        if (w.outcome === 'done') all.push({ ...at, write: { ...base, op: w.op } });
        continue;
      }
      const into = w.sent?.merge_with_id;
      if (typeof into === 'number' || typeof into === 'string') {
        // A merge (dedupe): the record named in the path is gone; the one it went into changed as the service chose.
        if (w.outcome === 'done') all.push({ kind: at.kind, id: String(into), write: { ...base, op: 'update', mergedInto: true } });
        continue;
      }
      for (const [field, value] of fieldsSent(w.sent ?? {})) all.push({ ...at, write: { ...base, op: 'update', field, value } });
    }
  }
  return { writesTo: (kind, id) => all.filter((x) => x.kind === kind && x.id === id).map((x) => x.write) };
}

/** The fields of a body as the change log keys them: custom fields by their own key, not under `custom_fields`. */
function fieldsSent(sent: Record<string, unknown>): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(sent)) {
    if (k === 'custom_fields' && v && typeof v === 'object' && !Array.isArray(v)) out.push(...Object.entries(v as Record<string, unknown>));
    else out.push([k, v]);
  }
  return out;
}
