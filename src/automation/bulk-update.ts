import { dirname, join } from 'node:path';
import { callOperation } from '../api/call.js';
import type { Operation } from '../api/operation.js';
import { checkReader, keyName, prepare, read, readerOf, type Prepared, type Reader } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { CliError, DailyBudgetError, PartialFailureError, UsageError, ValidationError } from '../core/errors.js';
import type { HttpResponse } from '../http/types.js';
import type { FieldSpec } from '../input/fields.js';
import { operationFields } from '../input/operation-input.js';
import { renderDocument } from '../output/report.js';
import { changesOf, holds, leaves, priorValues, show, tally, type Naming } from './bulk-update-changes.js';

export { priorValues } from './bulk-update-changes.js';
import { planJson, planText, type BulkPlan } from './bulk-update-plan.js';
import { recordsByIds, recordsOfFilter, selectionOf, type RecordId } from './bulk-update-select.js';
import { FILTER_KEY } from './bulk-update-where.js';
import { Progress } from './progress.js';
import { recordedValue } from '../runs/command-line.js';
import { canonical, hashOf } from '../runs/fingerprint.js';
import { isPassing } from '../runs/passing.js';
import { writeResults } from '../runs/results.js';
import { itemStates, openRun, readRun, runInput, type Run } from '../runs/run.js';

type Rec = Record<string, unknown>;

export interface BulkUpdateOptions {
  area: string;
  noun: string;
  list: Operation;
  get: Operation;
  update: Operation;
  filters: FieldSpec[];
  flags: { ids?: string; filterId?: number; where: string[]; field: string[]; data?: string; dryRun: boolean; concurrency?: number; state?: string; results?: string; resume: boolean; newRun: boolean };
  tableOpts: Record<string, unknown>;
}

/** What happened to one record (the results file holds one per selected record, in selection order). */
interface Outcome {
  id: RecordId;
  status: 'updated' | 'unchanged' | 'failed';
  error?: string;
}

const HASH = /^[0-9a-f]{40}(_currency|_until)?$/;

/**
 * Sets the same fields on many records. The records are selected and read once (their current values
 * decide which need a write and make the plan), every record's body goes through the entry, the plan is
 * printed and confirmed, then each record is one update, journaled as "sending" (on disk, with the values
 * it replaces) before it is sent and with its outcome after, in a run of src/runs (one account, one
 * selection and set of changes). A write whose answer is lost (reset, 5xx, timeout after sending) is
 * settled by reading the record back: holding the new values it is done, else it is sent again. A
 * resumed run reads back the records a killed run left in "sending" the same way, so none is written twice.
 */
export async function runBulkUpdate(ctx: Context, o: BulkUpdateOptions): Promise<void> {
  const { area, update, flags } = o;
  const statePath = flags.state ?? `${area}.bulk-update-state.ndjson`;
  const resultsPath = flags.results ?? join(dirname(statePath), `${area}.bulk-update.results.ndjson`);

  // Every read from here on (field names, the selection) counts in the plan's cost.
  const http = await ctx.http();
  const before = http.governor.stats.acquired;
  // The command line's selection is checked first (a bad id or filter value names its flag), read later;
  // --resume continues the journal's selection and does not read the flags again.
  const sel = flags.resume ? undefined : await selectionOf(ctx, { area, noun: o.noun, update, filters: o.filters, ids: flags.ids, filterId: flags.filterId, where: flags.where, tableOpts: o.tableOpts });
  // --dry-run sends nothing, and --where selects through a filter it creates: the two cannot go together.
  if (sel?.kind === 'where' && flags.dryRun) {
    throw new UsageError('--dry-run cannot be combined with --where: --where selects through a temporary saved filter (a write), and a dry run writes nothing', `Save the conditions once (crmctl filters create --where …) and dry-run with --filter-id, or run without --dry-run: the plan is printed before anything changes and a terminal asks (off one, without --yes, nothing is changed).`);
  }
  const given = flags.field.length > 0 || flags.data !== undefined;
  const changesGiven = given || !flags.resume ? await changesOf(ctx, update, { data: flags.data, field: flags.field }) : undefined;
  const selection = sel ? (sel.kind === 'ids' ? (flags.ids === '-' ? `${sel.ids.length} ids on stdin` : '--ids') : sel.describe) : undefined;
  const selected = sel?.kind === 'ids' ? { ids: sel.ids } : sel?.kind === 'where' ? { where: sel.where, type: sel.type } : sel ? { query: sel.query } : undefined;

  // Reads the entry's account checks make are kept for the run (a thousand leads read the labels once).
  const reader: Reader = { http: () => ctx.http(), debug: (l) => ctx.debug(l), credentials: () => ctx.credentials(), memo: new Map() };
  // The journal keeps the changes without a secret (a custom field named api_token, a credential pasted
  // as a value); when that took something out, it keeps their hash, and --resume needs them given again.
  // The credentials are loaded first, so a profile's token is among the secrets known.
  await (await ctx.credentials()).get();
  const kept = changesGiven && recordedValue(changesGiven, ctx.knownSecrets());
  const keptWhole = !changesGiven || canonical(kept) === canonical(changesGiven);
  const opened = await openRun(ctx, {
    kind: 'bulk-update',
    journal: statePath,
    input: sel && changesGiven ? runInput({ area, selected, changes: changesGiven }, `${area} ${selection}: sets ${JSON.stringify(kept)}`) : undefined,
    resume: flags.resume,
    newRun: flags.newRun,
    dryRun: flags.dryRun,
    header: { area, selection, changes: kept, ...(keptWhole ? {} : { changes_hash: hashOf(canonical(changesGiven)) }), ...(sel?.kind === 'where' ? { where: sel.where, filter_type: sel.type } : {}) },
    journalFlag: '--state',
    // A temporary --where filter a killed run left behind goes first, whatever happens next.
    cleanup: async (h, entries, append) => (await import('./bulk-update-where.js')).removeLeftoverFilter(ctx, reader, http, h.run_id, entries, append),
  });
  if (opened.state === 'done') return;
  const run = opened.run;
  const header = opened.state === 'resume' ? run.header : undefined;
  if (header && header.area !== area) throw new UsageError(`--resume: ${statePath} belongs to a bulk update of ${String(header.area)}; this command updates ${area}`);
  const heldBack = typeof header?.changes_hash === 'string';
  if (header && heldBack && !given) {
    throw new UsageError(`--resume: the journal in ${statePath} does not keep the values it sets that are secrets (${JSON.stringify(header.changes)}); give the same --data/--field again with --resume`, 'The journal keeps their hash: the same values continue the run; other values need --new-run.');
  }
  const changes = (changesGiven ?? header?.changes) as Rec;
  if (header && given && (heldBack ? hashOf(canonical(changes)) !== header.changes_hash : canonical(changes) !== canonical(header.changes))) {
    throw new UsageError(heldBack
      ? `--resume: this command sets other values than the run in ${statePath} was started with (the journal keeps only their hash: ${JSON.stringify(header.changes)})`
      : `--resume: the journal in ${statePath} sets ${JSON.stringify(header.changes)}; this command sets ${JSON.stringify(kept)}`, `Resume with the same fields${heldBack ? '' : ' (or none: the journal has them)'}, or --new-run to start another update (the journal's record is kept).`);
  }
  const hasIdsFilter = operationFields(o.list).fields.some((f) => f.location === 'query' && f.key === 'ids');

  // The records: those the journal selected, or the selection of this command line.
  let ids: RecordId[] = [];
  let current = new Map<string, Rec>();
  let temporaryFilter: string | undefined;
  const outcomes = new Map<string, Outcome>();
  const pending = new Set<string>(); // "sending" (or failed on a passing error): may have landed
  const entries = opened.state === 'resume' ? opened.entries : [];
  const journaledIds = (header?.ids ?? entries.find((e) => e.key === 'selection')?.ids) as RecordId[] | undefined;
  const whereOf = async (where: string[], type: string): Promise<void> => {
    // The filter's create is journaled before it is sent: the run begins before the selection.
    await run.begin();
    const { recordsOfWhere } = await import('./bulk-update-where.js');
    const found = await recordsOfWhere(ctx, reader, http, { list: o.list, type, where, runId: run.id, append: (e) => run.append(e) });
    ids = found.records.map((r) => r.id as RecordId);
    temporaryFilter = found.note;
    current = new Map(found.records.map((r) => [String(r.id), r]));
    await run.append({ key: 'selection', status: 'done', op: 'read', ids });
  };
  try {
    if (header && journaledIds) {
      ids = journaledIds;
      for (const { key, unsettled, last: e } of itemStates(entries).values()) {
        if (key === 'selection' || key.startsWith('filter:')) continue;
        if (unsettled) pending.add(key);
        else {
          const status = e.status === 'failed' ? 'failed' : e.action === 'unchanged' ? 'unchanged' : 'updated';
          outcomes.set(key, { id: (e.record ?? e.key) as RecordId, status, ...(e.error !== undefined ? { error: String(e.error) } : {}) });
        }
      }
      if (o.filters.some((f) => o.tableOpts[f.flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())] !== undefined) || flags.ids !== undefined || flags.filterId !== undefined || flags.where.length > 0) {
        ctx.warn(`--resume: continuing the ${ids.length} ${area} the journal selected (${String(header.selection)}); the selection flags are not read again`);
      }
      current = await recordsByIds(reader, o, ids.filter((id) => !outcomes.has(String(id))), hasIdsFilter);
    } else if (header) {
      // Killed before its selection was complete (only --where takes that long): select again.
      if (!Array.isArray(header.where)) throw new UsageError(`--resume: the journal in ${statePath} holds no selection; nothing was updated`, 'Start again with --new-run.');
      await whereOf(header.where as string[], String(header.filter_type));
    } else {
      if (!sel) throw new Error('internal: a new bulk update without a selection');
      if (sel.kind === 'ids') {
        ids = sel.ids;
        current = await recordsByIds(reader, o, ids, hasIdsFilter);
      } else if (sel.kind === 'where') {
        await whereOf(sel.where, sel.type);
      } else {
        const recs = await recordsOfFilter(reader, o.list, sel.query);
        ids = recs.map((r) => r.id as RecordId);
        current = new Map(recs.map((r) => [String(r.id), r]));
      }
    }
  } catch (err) {
    await run.close();
    throw err;
  }
  const doneEarlier = outcomes.size;

  // Every record's body through the one entry; the first refusal is exit 2 before anything is written.
  const entry = async (id: RecordId): Promise<Prepared> => {
    try {
      return await prepare(reader, update, { params: { id }, body: changes });
    } catch (err) {
      if (err instanceof ValidationError) throw new ValidationError(err.issues.map((i) => ({ field: fieldOf(update, i.field), rule: i.rule })), err.hint);
      throw err;
    }
  };
  const toWrite: Array<{ id: RecordId; input: Prepared }> = [];
  const settledNow: Outcome[] = [];
  const unchangedRecords: Rec[] = [];
  let body: Rec | undefined;
  try {
    for (const id of ids) {
      if (outcomes.has(String(id))) continue;
      const rec = current.get(String(id));
      if (!rec) {
        settledNow.push({ id, status: 'failed', error: `not found (${o.noun} ${String(id)} does not exist or is not visible to this user)` });
        continue;
      }
      const input = await entry(id);
      body ??= input.body as Rec;
      if (holds(rec, input.body as Rec)) {
        // A record left in "sending" that holds the values now: that write landed.
        settledNow.push({ id, status: pending.has(String(id)) ? 'updated' : 'unchanged' });
        unchangedRecords.push(rec);
      } else toWrite.push({ id, input });
    }
  } catch (err) {
    await endBeforeWrites(run);
    throw err;
  }
  const readCost = http.governor.stats.acquired - before;

  const names = await naming(ctx, reader, update, body);
  const plan: BulkPlan = {
    area,
    selection: String(selection ?? header?.selection),
    selected: ids.length,
    to_update: toWrite.length,
    unchanged: settledNow.filter((x) => x.status === 'unchanged').length,
    not_found: settledNow.filter((x) => x.status === 'failed').length,
    done_earlier: doneEarlier + settledNow.filter((x) => x.status === 'updated').length,
    fields: body ? tally(body, [...toWrite.map((w) => current.get(String(w.id))!), ...unchangedRecords], names) : [],
    update,
    read_cost: readCost,
    daily: http.daily,
    ...(temporaryFilter ? { temporary_filter: temporaryFilter } : {}),
    service_now: http.serviceNow(),
  };
  ctx.io.stderr.write(`${planText(plan)}\n`);
  if (flags.dryRun) {
    await run.close();
    const text = 'Dry run: nothing was written.';
    await renderDocument(ctx, { json: { dry_run: true, ...planJson(plan) }, text });
    return;
  }
  if (toWrite.length) {
    try {
      await ctx.confirm(`Update ${toWrite.length} ${area}?`);
    } catch (err) {
      await endBeforeWrites(run);
      throw err;
    }
  }

  const progress = new Progress(ctx, `bulk-update ${area}`);
  // A spent daily budget refuses every update until the reset: stop, keep the journal, say when to resume.
  let spent: DailyBudgetError | undefined;
  run.watchSignals('updates');
  const retryable = new Set<string>();
  try {
    await run.begin({ ids });
    // Queued together: the journal writes them with one disk sync, not one each.
    await Promise.all(settledNow.map((x) => record(run, outcomes, x)));

    const readBack = readerOf(http, (l) => ctx.debug(l));
    let failed = 0;
    const sendOne = async (id: RecordId, input: Prepared): Promise<void> => {
      // The values the update replaces, from the record as read for the plan: an undo writes them back.
      await run.sending(String(id), { op: 'update', record: id, sent: input.body as Rec, prior: priorValues(current.get(String(id)) ?? {}, input.body as Rec) });
      let unsettled = false;
      // PATCH is idempotent on paper, but a blind resend would write a record twice: ask the record first.
      const reconcile = async (): Promise<HttpResponse | undefined> => {
        try {
          const now = await read(readBack, o.get, { params: { id } });
          return holds(now, input.body as Rec) ? { status: 200, headers: {}, body: { success: true, data: now } } : undefined;
        } catch (err) {
          unsettled = true;
          throw err;
        }
      };
      try {
        await callOperation(http, update, input, { idempotent: false, reconcile });
        await record(run, outcomes, { id, status: 'updated' });
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
        if (err instanceof DailyBudgetError) {
          spent ??= err;
          run.requestStop();
        }
        failed++;
        const error = unsettled ? `outcome unknown: the update may have landed and reading the record back failed (${err.message}); --resume reads it again` : err.message;
        const again = unsettled || isPassing(err);
        if (again) retryable.add(String(id));
        await record(run, outcomes, { id, status: 'failed', error }, again ? { retry: true } : {});
      }
      progress.update(outcomes.size - doneEarlier, { total: ids.length - doneEarlier, extra: `${failed} failed` });
    };

    const concurrency = flags.concurrency ?? 4;
    const inFlight = new Set<Promise<void>>();
    for (const { id, input } of toWrite) {
      if (run.stopping) break;
      const p = sendOne(id, input).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    progress.done(outcomes.size - doneEarlier, { total: ids.length - doneEarlier, extra: `${failed} failed` });

    const rows = ids.flatMap((id) => outcomes.get(String(id)) ?? []);
    writeResults(resultsPath, rows);
    const count = (s: Outcome['status']) => rows.filter((r) => r.status === s).length;
    const summary = { updated: count('updated'), unchanged: count('unchanged'), failed: count('failed') };
    const said = `${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.failed} failed`;
    ctx.debug(`pacing: ${http.governor.stats.acquired} cost units, ${http.governor.stats.waits} waits for the budget window`);
    if (spent) {
      await run.pause(said);
      throw spent;
    }
    if (run.stopping) {
      await run.pause(said);
      throw run.stoppedError(`${summary.updated} updated, ${summary.failed} failed`, resultsPath);
    }
    await renderDocument(ctx, {
      json: { area, ...summary, selected: ids.length, results: resultsPath },
      text: `Updated ${summary.updated} ${area}; ${summary.unchanged} unchanged, ${summary.failed} failed. Results: ${resultsPath}`,
    });
    // Records that failed on a passing error keep the run open for --resume; the journal stays either way (an undo reads it).
    if (retryable.size) await run.pause(said);
    else await run.finish(said, summary);
    if (summary.failed) {
      throw new PartialFailureError(
        `${summary.failed} of ${ids.length} ${area} failed; see ${resultsPath}`,
        retryable.size
          ? `Records that failed on a passing error (budget, network, 5xx) are tried again by the same command with --resume (journal ${statePath}); records already updated are never written twice.`
          : `The service refused them (or they do not exist); this run is finished (journal ${statePath}): select those records again with --new-run once the cause is fixed.`,
      );
    }
  } catch (err) {
    throw await run.stoppedBy(err);
  } finally {
    await run.close();
  }
}

/**
 * A run that ends before its first update (declined at the prompt, a refused body): a --where run has
 * begun its journal for the temporary filter, which is deleted by now, so nothing is left to continue.
 */
async function endBeforeWrites(run: Run): Promise<void> {
  if (run.resumable && !readRun(run.journal).items.some((e) => e.key === FILTER_KEY && e.op === 'delete' && e.status !== 'done')) await run.discard();
  else await run.close();
}


/** How the plan names a member and shows its values: custom fields by name and options by label (hashes and option ids mean nothing to a person). */
async function naming(ctx: Context, reader: Reader, update: Operation, body: Rec | undefined): Promise<Naming> {
  const plain: Naming = { field: (path) => path.join('.'), value: (_path, v) => show(v) };
  if (!body || !update.cli.customFields || !leaves(body).some((l) => l.path.some((p) => HASH.test(p)))) return plain;
  const { fieldCatalog } = await import('../names/catalog.js');
  const cat = await fieldCatalog(checkReader(reader), update.cli.customFields, ctx);
  const custom = (path: string[]) => {
    const last = path[path.length - 1]!;
    return HASH.test(last) ? cat.field(last.slice(0, 40)) : undefined;
  };
  return {
    field: (path) => custom(path)?.name ?? plain.field(path),
    value: (path, v) => {
      const f = custom(path);
      if (!f?.options.length || v === null || v === undefined) return show(v);
      const ids = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
      return ids.map((id) => cat.labelOf(f.key, typeof id === 'string' ? id.trim() : id) ?? show(id)).join(', ');
    },
  };
}

/** An issue of the entry named as this command takes it: a field key becomes `--field <key>`. */
function fieldOf(update: Operation, field: string): string {
  if (field.startsWith('--field') || field === '--data') return field;
  if (field.startsWith('--') || field.startsWith('body.')) return `--field ${keyName(update, field)}`;
  return field;
}

/** A record's outcome, in memory and in the run's journal (keyed by its id). */
async function record(run: Run, outcomes: Map<string, Outcome>, outcome: Outcome, extra: Rec = {}): Promise<void> {
  outcomes.set(String(outcome.id), outcome);
  const { id, status, error } = outcome;
  if (status === 'failed') await run.failed(String(id), error ?? 'failed', { record: id, ...extra });
  else await run.done(String(id), { record: id, action: status, ...extra });
}
