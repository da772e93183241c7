import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { callOperation } from '../api/call.js';
import type { Operation } from '../api/operation.js';
import { checkReader, keyName, prepare, read, readerOf, type Prepared, type Reader } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { AmbiguousWriteError, ApiError, AuthError, CancelledError, CliError, DailyBudgetError, markResumable, NotFoundError, PartialFailureError, UsageError, ValidationError } from '../core/errors.js';
import type { HttpResponse } from '../http/types.js';
import type { FieldSpec } from '../input/fields.js';
import { operationFields } from '../input/operation-input.js';
import { renderDocument } from '../output/report.js';
import { changesOf, holds, leaves, show, tally, type Naming } from './bulk-update-changes.js';
import { planJson, planText, type BulkPlan } from './bulk-update-plan.js';
import { recordsByIds, recordsOfFilter, selectionOf, type RecordId } from './bulk-update-select.js';
import { Journal, removeIfExists, writeJsonLinesAtomic } from './durable.js';
import { Progress } from './progress.js';

type Rec = Record<string, unknown>;

export interface BulkUpdateOptions {
  area: string;
  noun: string;
  list: Operation;
  get: Operation;
  update: Operation;
  filters: FieldSpec[];
  flags: { ids?: string; filterId?: number; where: string[]; field: string[]; data?: string; dryRun: boolean; concurrency?: number; state?: string; results?: string; resume: boolean };
  tableOpts: Record<string, unknown>;
}

/** The journal's first entry: what was selected and what is set, so --resume continues the same job. */
interface RunHeader {
  type: 'run';
  run_id: string;
  area: string;
  selection: string;
  ids: RecordId[];
  changes: Rec;
  started_at: string;
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
 * printed and confirmed, then each record is one update, journaled as "sending" (on disk) before it is
 * sent and with its outcome after. A write whose answer is lost (reset, 5xx, timeout after sending) is
 * settled by reading the record back: holding the new values it is done, else it is sent again. A
 * resumed run reads back the records a killed run left in "sending" the same way, so none is written twice.
 */
export async function runBulkUpdate(ctx: Context, o: BulkUpdateOptions): Promise<void> {
  const { area, update, flags } = o;
  const statePath = flags.state ?? `${area}.bulk-update-state.ndjson`;
  const resultsPath = flags.results ?? join(dirname(statePath), `${area}.bulk-update.results.ndjson`);
  const journal = Journal.read(statePath);
  const header = journal.find((e) => e.type === 'run') as RunHeader | undefined;
  if (header && !flags.resume && !flags.dryRun) {
    throw new UsageError(
      `a bulk update of ${header.area} (run ${header.run_id}, started ${header.started_at}) already has state in ${statePath}`,
      'Continue it with --resume (records already updated are not written again), or delete that file to start another.',
    );
  }
  if (flags.resume && !header) throw new UsageError(`--resume: there is no bulk update to continue in ${statePath}`, 'Run the command without --resume to start one (--state names another journal).');
  if (header && header.area !== area) throw new UsageError(`--resume: ${statePath} belongs to a bulk update of ${header.area}; this command updates ${area}`);

  // Every read from here on (field names, the selection) counts in the plan's cost.
  const http = await ctx.http();
  const before = http.governor.stats.acquired;
  // The command line's selection is checked first (a bad id or filter value names its flag), read later.
  const sel = header ? undefined : await selectionOf(ctx, { area, noun: o.noun, update, filters: o.filters, ids: flags.ids, filterId: flags.filterId, where: flags.where, tableOpts: o.tableOpts });
  // --dry-run sends nothing, and --where selects through a filter it creates: the two cannot go together.
  if (sel?.kind === 'where' && flags.dryRun) {
    throw new UsageError('--dry-run cannot be combined with --where: --where selects through a temporary saved filter (a write), and a dry run writes nothing', `Save the conditions once (crmctl filters create --where …) and dry-run with --filter-id, or run without --dry-run: the plan is printed before anything changes and a terminal asks (off one, without --yes, nothing is changed).`);
  }
  const runId = header?.run_id ?? randomBytes(6).toString('hex');
  const given = flags.field.length > 0 || flags.data !== undefined;
  const changes = given || !header ? await changesOf(ctx, update, { data: flags.data, field: flags.field }) : header.changes;
  if (header && given && canonical(changes) !== canonical(header.changes)) {
    throw new UsageError(`--resume: the journal in ${statePath} sets ${JSON.stringify(header.changes)}; this command sets ${JSON.stringify(changes)}`, 'Resume with the same fields (or none: the journal has them), or delete the journal to start another update.');
  }

  // Reads the entry's account checks make are kept for the run (a thousand leads read the labels once).
  const reader: Reader = { http: () => ctx.http(), debug: (l) => ctx.debug(l), credentials: () => ctx.credentials(), memo: new Map() };
  const hasIdsFilter = operationFields(o.list).fields.some((f) => f.location === 'query' && f.key === 'ids');

  // The records: those the journal selected, or the selection of this command line.
  let ids: RecordId[];
  let selection: string;
  let current: Map<string, Rec>;
  let temporaryFilter: string | undefined;
  const outcomes = new Map<string, Outcome>();
  const pending = new Set<string>(); // "sending" (or failed on a passing error): may have landed
  if (header) {
    ids = header.ids;
    selection = header.selection;
    for (const e of journal) {
      if (e.type === 'run' || e.id === undefined) continue;
      const id = String(e.id);
      if (e.status === 'sending' || (e.status === 'failed' && e.retry === true)) {
        outcomes.delete(id);
        pending.add(id);
      } else if (e.status === 'updated' || e.status === 'unchanged' || e.status === 'failed') {
        pending.delete(id);
        outcomes.set(id, { id: e.id as RecordId, status: e.status, ...(e.error !== undefined ? { error: String(e.error) } : {}) });
      }
    }
    if (o.filters.some((f) => o.tableOpts[f.flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())] !== undefined) || flags.ids !== undefined || flags.filterId !== undefined || flags.where.length > 0) {
      ctx.warn(`--resume: continuing the ${ids.length} ${area} the journal selected (${selection}); the selection flags are not read again`);
    }
    current = await recordsByIds(reader, o, ids.filter((id) => !outcomes.has(String(id))), hasIdsFilter);
  } else {
    if (!sel) throw new Error('internal: a new bulk update without a selection');
    if (sel.kind === 'ids') {
      ids = sel.ids;
      selection = flags.ids === '-' ? `${ids.length} ids on stdin` : '--ids';
      current = await recordsByIds(reader, o, ids, hasIdsFilter);
    } else if (sel.kind === 'where') {
      const { recordsOfWhere } = await import('./bulk-update-where.js');
      const found = await recordsOfWhere(ctx, reader, http, { list: o.list, type: sel.type, where: sel.where, runId });
      ids = found.records.map((r) => r.id as RecordId);
      selection = sel.describe;
      temporaryFilter = found.note;
      current = new Map(found.records.map((r) => [String(r.id), r]));
    } else {
      const recs = await recordsOfFilter(reader, o.list, sel.query);
      ids = recs.map((r) => r.id as RecordId);
      selection = sel.describe;
      current = new Map(recs.map((r) => [String(r.id), r]));
    }
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
  const readCost = http.governor.stats.acquired - before;

  const names = await naming(ctx, reader, update, body);
  const plan: BulkPlan = {
    area,
    selection,
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
    const text = 'Dry run: nothing was written.';
    await renderDocument(ctx, { json: { dry_run: true, ...planJson(plan) }, text });
    return;
  }
  if (toWrite.length) await ctx.confirm(`Update ${toWrite.length} ${area}?`);

  const log = new Journal(statePath);
  const progress = new Progress(ctx, `bulk-update ${area}`);
  let stopping = false;
  let complete = false;
  // A spent daily budget refuses every update until the reset: stop, keep the journal, say when to resume.
  let spent: DailyBudgetError | undefined;
  const onSigint = () => {
    stopping = true;
    ctx.io.stderr.write('\nStopping after the updates in flight; run the same command with --resume to continue.\n');
  };
  process.once('SIGINT', onSigint);
  try {
    if (!header) await log.append({ type: 'run', run_id: runId, area, selection, ids, changes, started_at: new Date().toISOString() } satisfies RunHeader);
    // Queued together: the journal writes them with one disk sync, not one each.
    await Promise.all(settledNow.map((x) => record(log, outcomes, x)));

    const readBack = readerOf(http, (l) => ctx.debug(l));
    let failed = 0;
    const sendOne = async (id: RecordId, input: Prepared): Promise<void> => {
      await log.append({ id, status: 'sending', at: Date.now() });
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
        await record(log, outcomes, { id, status: 'updated' });
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
        if (err instanceof DailyBudgetError) {
          spent ??= err;
          stopping = true;
        }
        failed++;
        const error = unsettled ? `outcome unknown: the update may have landed and reading the record back failed (${err.message}); --resume reads it again` : err.message;
        await record(log, outcomes, { id, status: 'failed', error }, unsettled || isPassing(err) ? { retry: true } : {});
      }
      progress.update(outcomes.size - doneEarlier, { total: ids.length - doneEarlier, extra: `${failed} failed` });
    };

    const concurrency = flags.concurrency ?? 4;
    const inFlight = new Set<Promise<void>>();
    for (const { id, input } of toWrite) {
      if (stopping) break;
      const p = sendOne(id, input).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    progress.done(outcomes.size - doneEarlier, { total: ids.length - doneEarlier, extra: `${failed} failed` });

    const rows = ids.flatMap((id) => outcomes.get(String(id)) ?? []);
    writeJsonLinesAtomic(resultsPath, rows);
    const count = (s: Outcome['status']) => rows.filter((r) => r.status === s).length;
    const summary = { updated: count('updated'), unchanged: count('unchanged'), failed: count('failed') };
    ctx.debug(`pacing: ${http.governor.stats.acquired} cost units, ${http.governor.stats.waits} waits for the budget window`);
    if (spent) throw spent;
    if (stopping) throw new CancelledError(`Bulk update stopped: ${summary.updated} updated, ${summary.failed} failed so far; results in ${resultsPath}. Continue with --resume.`);
    await renderDocument(ctx, {
      json: { area, ...summary, selected: ids.length, results: resultsPath },
      text: `Updated ${summary.updated} ${area}; ${summary.unchanged} unchanged, ${summary.failed} failed. Results: ${resultsPath}`,
    });
    if (summary.failed) {
      throw new PartialFailureError(
        `${summary.failed} of ${ids.length} ${area} failed; see ${resultsPath}`,
        `Records that failed on a passing error (budget, network, 5xx) are tried again by the same command with --resume (journal ${statePath}); records already updated are never written twice.`,
      );
    }
    complete = true;
  } catch (err) {
    throw markResumable(err);
  } finally {
    process.removeListener('SIGINT', onSigint);
    await log.close();
  }
  // Every record settled: the journal has done its job (the results file stays).
  if (complete) removeIfExists(statePath);
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

/** A failure that may not happen again (budget, network, 5xx after every retry): --resume tries the record again. */
function isPassing(err: CliError): boolean {
  if (err instanceof AmbiguousWriteError || err instanceof ValidationError || err instanceof AuthError || err instanceof NotFoundError || err instanceof UsageError) return false;
  if (err instanceof ApiError) return err.status >= 500 || err.status === 429;
  return true;
}

/** JSON with keys in order: the same changes given in another order are the same changes. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Rec)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

async function record(log: Journal, outcomes: Map<string, Outcome>, outcome: Outcome, extra: Rec = {}): Promise<void> {
  outcomes.set(String(outcome.id), outcome);
  await log.append({ ...outcome, ...extra });
}
