import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { callOperation, recordsOf } from '../api/call.js';
import { prepare, type Prepared, type Reader } from '../entry/prepare.js';
import { renderDocument } from '../output/report.js';
import type { Context } from '../core/context.js';
import { AmbiguousWriteError, ApiError, AuthError, CancelledError, CliError, DailyBudgetError, markResumable, NotFoundError, PartialFailureError, UsageError, ValidationError } from '../core/errors.js';
import type { HttpPort } from '../core/http-port.js';
import type { HttpResponse } from '../http/types.js';
import { Journal, removeIfExists } from './durable.js';
import { formatDuration, Progress } from './progress.js';
import { markerFor, reconcilerFor, type Reconciler } from './reconcile.js';
import { readOnlyFields, type ImportResource } from './resources.js';
import { RowMapper, type MappedRow } from './row-mapper.js';
import { nameKey, resolveNames, type RefKind } from './name-refs.js';
import { readRows, type InputFormat } from './rows.js';
import type { Issue } from './validate-body.js';
import { writeResults, type Outcome } from './results.js';
import { budgetProbe, customFieldsFor } from './lookups.js';
import { budgetNotice } from './budget-notice.js';
import type { RowPlan } from './upsert-import.js';

type UpdatePlan = Extract<RowPlan, { action: 'update' }>;

export interface ImportOptions {
  resource: ImportResource;
  file: string;
  format: InputFormat;
  skipInvalid: boolean;
  concurrency: number;
  statePath: string;
  resultsPath: string;
  resume: boolean;
  dryRun: boolean;
  /** import --upsert --match-on FIELD: rows update the record they match (src/automation/upsert-import.ts). */
  upsert?: { matchOn?: string };
}

interface RunHeader {
  type: 'run';
  run_id: string;
  resource: string;
  file: string;
  format: InputFormat;
  started_at: string;
}

const MAX_REPORTED = 50;

/**
 * Creates one record per input row. Every row is checked first (nothing is sent when one is bad,
 * unless --skip-invalid); then rows go out with bounded concurrency, paced to the cost budget, each
 * journaled as "sending" (fsynced) before the request and with its id or error after. A resumed run
 * reconciles the rows left in "sending" before it sends anything, so no row is created twice.
 */
export async function runImport(ctx: Context, o: ImportOptions): Promise<void> {
  const { resource } = o;
  const op = resource.op;
  const reconciler = reconcilerFor(resource.name);
  if (!existsSync(o.file)) throw new UsageError(`--file: ${o.file} does not exist`);

  const upsert = o.upsert ? await (await import('./upsert-import.js')).ImportUpsert.open(ctx, resource.name, o.upsert.matchOn) : undefined;

  // What an earlier run left behind.
  let journal = Journal.read(o.statePath);
  // An upsert that finished is a sync done: running it again starts a new run (matching again), not a resume.
  if (upsert && !o.resume && !o.dryRun && journal.some((e) => e.type === 'end')) {
    removeIfExists(o.statePath);
    journal = [];
  }
  const header = journal.find((e) => e.type === 'run') as RunHeader | undefined;
  if (header && !o.resume && !o.dryRun) {
    throw new UsageError(
      `an import of ${header.file} (run ${header.run_id}, started ${header.started_at}) already has state in ${o.statePath}`,
      'Continue it with --resume (rows already created are not sent again), or delete that file to import the rows again.',
    );
  }
  if (header && (header.resource !== resource.name || header.format !== o.format)) {
    throw new UsageError(`--resume: ${o.statePath} belongs to an import of ${header.resource} (${header.format}); this command imports ${resource.name} (${o.format})`);
  }
  const outcomes = new Map<number, Outcome>();
  const pending = new Map<number, number>(); // line → first send time, still "sending"
  const retrying = new Set<number>(); // failed on a passing error without an ambiguous answer
  const pendingUpdates = new Set<number>(); // upsert: the write in flight was the PATCH of a matched record
  for (const e of journal) {
    if (typeof e.line !== 'number') continue;
    if (e.status === 'sending') {
      if (!pending.has(e.line)) pending.set(e.line, Number(e.at ?? Date.now()));
      if (e.update !== undefined) pendingUpdates.add(e.line);
    } else if (e.error !== undefined && e.retry === true) {
      // Failed on something passing (budget, network, 5xx after every retry): --resume tries the row
      // again, after the same look-up as a row left in "sending", so it is never created twice.
      outcomes.delete(e.line);
      pending.set(e.line, Number(e.at ?? Date.now()));
      retrying.add(e.line);
    } else if (e.id !== undefined || e.error !== undefined) {
      pending.delete(e.line);
      const done: Outcome = e.id !== undefined ? { line: e.line, id: e.id as string | number } : { line: e.line, error: String(e.error) };
      outcomes.set(e.line, e.action === undefined ? done : Object.assign(done, { action: e.action }));
    }
  }
  const runId = header?.run_id ?? randomBytes(6).toString('hex');
  const wasPending = new Set(pending.keys());

  const http = await ctx.http();
  const pacer = http.governor;
  // Field metadata is read only when the file has a column no field of the create explains (a custom field's name).
  const plain = new RowMapper(resource.name, op, [], readOnlyFields(resource.name));
  const custom = op.cli.customFields && firstKeys(o.file, o.format).some((k) => !plain.knows(k)) ? await customFieldsFor(ctx, op) : [];
  const mapper = custom.length ? new RowMapper(resource.name, op, custom, readOnlyFields(resource.name)) : plain;
  // The one entry every door takes (keys, schemas, the operation's account checks); reads the checks
  // make are kept for the run, so ten thousand rows read the lead labels once.
  const reader: Reader = { http: () => ctx.http(), debug: (l) => ctx.debug(l), credentials: () => ctx.credentials(), memo: new Map() };
  const entry = (body: Record<string, unknown>): Promise<Prepared> => prepare(reader, op, { body }, { naming: 'keys', container: 'row', fieldLabel: (name) => name });

  // Pass 1: every row checked before anything is written.
  const invalidByLine = new Map<number, Issue[]>();
  const named: Array<{ line: number; refs: NonNullable<MappedRow['refs']> }> = [];
  const keys = new Map<string, number>();
  const pendingBodies: Array<{ line: number; body: Record<string, unknown> }> = [];
  let valid = 0;
  for await (const { line, body, issues, refs } of mappedRows(o.file, o.format, mapper)) {
    const problems = [...issues];
    if (refs) named.push({ line, refs });
    const k = problems.length ? undefined : reconciler.key?.(body);
    if (k !== undefined) {
      const first = keys.get(k);
      if (first !== undefined) problems.push({ field: 'name', rule: `repeats line ${first} (${JSON.stringify(k)}); names must be unique to import safely` });
      else keys.set(k, line);
    }
    if (!problems.length) {
      try {
        const checked = await entry(body);
        const noKey = upsert?.note(line, checked.body as Record<string, unknown>);
        if (noKey) problems.push(noKey);
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        problems.push(...err.issues);
      }
    }
    if (problems.length) invalidByLine.set(line, problems);
    else {
      valid++;
      // A PATCH is not looked up by content: the row is matched again below, and finds its values there if it landed.
      if (pending.has(line) && !pendingUpdates.has(line)) pendingBodies.push({ line, body: reconciler.prepare(body, markerFor(runId, line)) });
    }
  }
  // Linked records given by name: looked up once; rows whose names match nothing (or several) are invalid.
  if (named.length) {
    const { ids, problems } = await resolveNames(ctx, http, wantedNames(named));
    mapper.useNames(ids);
    for (const { line, refs } of named) {
      const bad = refs.flatMap((r) => {
        if (r.kind === 'stage' && mapper.stageOfRow(refs) !== undefined) return [];
        const rule = problems.get(r.kind)?.get(nameKey(r.name));
        return rule ? [{ field: r.header, rule: `${JSON.stringify(r.name)} ${rule}` }] : [];
      });
      if (!bad.length) continue;
      if (!invalidByLine.has(line)) valid--;
      invalidByLine.set(line, [...(invalidByLine.get(line) ?? []), ...bad]);
    }
  }
  // Upsert: the kind's list read once, indexed by the key; rows matching several records or sharing one are refused.
  if (upsert) {
    for (const [line, issues] of await upsert.index(reader)) {
      if (!invalidByLine.has(line)) valid--;
      invalidByLine.set(line, [...(invalidByLine.get(line) ?? []), ...issues]);
    }
  }
  const skipped = skippedNote(mapper);
  if (skipped) ctx.warn(skipped);
  const invalid = [...invalidByLine].sort((a, b) => a[0] - b[0]).map(([line, issues]) => ({ line, issues }));
  if (invalid.length && !o.skipInvalid) throw invalidRowsError(invalid, o.file);

  if (o.dryRun && upsert) {
    const rows: Parameters<typeof upsert.printPlan>[0] = [];
    for await (const { line, body } of mappedRows(o.file, o.format, mapper)) {
      if (invalidByLine.has(line)) rows.push({ line, plan: { action: 'invalid' } });
      else if (outcomes.has(line)) rows.push({ line, plan: { action: 'done' } });
      else rows.push({ line, plan: await upsert.decide(line, (await entry(body)).body as Record<string, unknown>) });
    }
    await upsert.printPlan(rows);
    return;
  }
  if (o.dryRun) {
    await printPlan(ctx, http, o, reconciler, { total: valid + invalid.length, valid, invalid: invalid.length, done: outcomes.size });
    return;
  }

  const log = new Journal(o.statePath);
  const progress = new Progress(ctx, `import ${resource.name}`);
  let stopping = false;
  // A spent daily budget refuses every row until midnight: stop, keep the journal, say when to resume.
  let spent: DailyBudgetError | undefined;
  const onSigint = () => {
    stopping = true;
    ctx.io.stderr.write('\nStopping after the rows in flight; run the same command with --resume to continue.\n');
  };
  process.once('SIGINT', onSigint);
  try {
    if (!header) await log.append({ type: 'run', run_id: runId, resource: resource.name, file: o.file, format: o.format, started_at: new Date().toISOString() } satisfies RunHeader);

    // Ids rows of this import own: a look-up by content never gives one of them to another row.
    const taken = new Set([...outcomes.values()].flatMap((x) => ('id' in x ? [String(x.id)] : [])));
    // Rows a killed run left in "sending": find out whether they landed before sending anything.
    if (pendingBodies.length) {
      const since = Math.min(...pendingBodies.map((r) => pending.get(r.line)!));
      const found = reconciler.kind === 'none' ? new Map() : await reconciler.find(http, pendingBodies, since, taken);
      for (const r of pendingBodies) {
        const rec = found.get(r.line);
        if (rec) await record(log, outcomes, { line: r.line, id: rec.id as string | number }, { reconciled: true });
        // Without a look-up only rows known not to have landed (refused by the budget, never sent) go again.
        else if (reconciler.kind === 'none' && !retrying.has(r.line)) await record(log, outcomes, { line: r.line, error: 'outcome unknown: the run stopped while this row was being sent, and this resource has no safe way to check; not resent (check the account, then remove the line from the file)' });
        else pending.delete(r.line); // did not land: send it again below
      }
    }
    // Natural keys that exist already (and were not created by this run) would be duplicates.
    const existing = reconciler.existing ? await reconciler.existing(http) : new Map<string, string | number>();
    const ours = new Set([...outcomes.values()].map((x) => ('id' in x ? String(x.id) : '')));

    const concurrency = reconciler.kind === 'none' ? 1 : o.concurrency;
    if (reconciler.kind === 'none' && o.concurrency > 1) ctx.info(`${resource.name} has no safe way to detect a lost answer: sending one row at a time.`);
    const invalidLines = new Map(invalid.map((x) => [x.line, x.issues]));
    let sent = 0, failed = 0;
    const inFlight = new Set<Promise<void>>();

    // Rows whose create may have landed and whose look-up then failed: unsettled until --resume looks again.
    const unsettled = new Set<number>();
    // An upsert row that matched a record sends its PATCH (idempotent: the client may resend it) instead of the create.
    const sendRow = async (line: number, body: Record<string, unknown>, update?: UpdatePlan): Promise<void> => {
      const sentAt = Date.now();
      await log.append({ line, status: 'sending', at: sentAt, ...(update ? { update: update.id } : {}) });
      try {
        if (upsert && update) {
          await callOperation(http, upsert.ops.update, await upsert.updateInput(reader, update));
          await record(log, outcomes, Object.assign({ line, id: update.id }, { action: 'updated', changed: update.changed }));
          sent++;
          progress.update(outcomes.size, { total: valid, extra: `${failed} failed` });
          return;
        }
        const { envelope } = await callOperation(http, op, await entry(body), { reconcile: reconcileHook(http, reconciler, { line, body, sentAt }, taken, unsettled) });
        const rec = recordsOf(op, envelope) as Record<string, unknown> | null;
        if (rec?.id !== undefined && rec.id !== null) taken.add(String(rec.id));
        await record(log, outcomes, { line, id: (rec?.id ?? null) as string | number });
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
        if (err instanceof DailyBudgetError) { spent ??= err; stopping = true; }
        failed++;
        if (unsettled.has(line)) {
          await record(log, outcomes, { line, error: `outcome unknown: the create may have landed and looking it up failed (${err.message}); --resume looks it up again and sends it only if it is not there` }, { retry: true, at: sentAt });
        } else await record(log, outcomes, { line, error: err.message }, isPassing(err) ? { retry: true, at: sentAt } : {});
      }
      sent++;
      progress.update(outcomes.size, { total: valid, extra: `${failed} failed` });
    };

    budgetNotice(ctx, http, { tokens: Math.max(0, valid - outcomes.size) * (op.cost ?? 1), atLeast: op.cost == null });
    for await (const { line, body } of mappedRows(o.file, o.format, mapper)) {
      if (stopping) break;
      if (outcomes.has(line)) continue;
      if (invalidLines.has(line)) {
        outcomes.set(line, { line, error: invalidLines.get(line)!.map((i) => `${i.field}: ${i.rule}`).join('; '), skipped: true });
        continue;
      }
      const k = reconciler.key?.(body);
      if (k !== undefined && existing.has(k) && !ours.has(String(existing.get(k)))) {
        failed++;
        await record(log, outcomes, { line, error: `name: ${JSON.stringify(k)} already exists (id ${existing.get(k)}); not created again` });
        continue;
      }
      const plan = upsert ? await upsert.decide(line, (await entry(body)).body as Record<string, unknown>) : undefined;
      if (plan?.action === 'unchanged') {
        // A write a killed run left in flight that now finds its values: it landed (then, or by the run before).
        const action = wasPending.has(line) ? (pendingUpdates.has(line) ? 'updated' : 'created') : 'unchanged';
        await record(log, outcomes, Object.assign({ line, id: plan.id }, { action }), wasPending.has(line) ? { reconciled: true } : {});
        continue;
      }
      const p = sendRow(line, reconciler.prepare(body, markerFor(runId, line)), plan?.action === 'update' ? plan : undefined).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    progress.done(outcomes.size, { total: valid, extra: `${failed} failed` });

    if (upsert) for (const x of outcomes.values()) upsert.tag(x);
    const summary = writeResults(o.resultsPath, outcomes);
    ctx.debug(`pacing: ${pacer.stats.acquired} cost units, ${pacer.stats.waits} waits for the budget window`);
    if (spent) throw spent;
    if (stopping) throw new CancelledError(`Import stopped: ${summary.created} created, ${summary.failed} failed so far; results in ${o.resultsPath}. Continue with --resume.`);
    if (stopping === false && summary.created + summary.failed + summary.skipped === 0 && sent === 0 && valid === 0) ctx.info('No rows to import.');
    if (upsert) {
      if (upsert.dropped.size) ctx.warn(`not changed on existing ${resource.name} (set only when one is created): ${[...upsert.dropped].join(', ')}`);
      await printUpsertSummary(ctx, o, upsert.counts(outcomes.values()));
      if (!summary.failed && !stopping) await log.append({ type: 'end', at: Date.now() });
    } else await printSummary(ctx, o, summary);
    if (summary.failed) {
      throw new PartialFailureError(
        `${summary.failed} of ${summary.created + summary.failed} rows failed; see ${o.resultsPath}`,
        'Rows that failed on a passing error (budget, network, 5xx) are sent again by the same command with --resume; fix the others and run again with --resume (rows already created are never sent twice).',
      );
    }
  } catch (err) {
    // The journal is kept: the error report names the command line that continues the import.
    throw markResumable(err);
  } finally {
    process.removeListener('SIGINT', onSigint);
    await log.close();
  }
}

/** One note for every column the import left out (an export's read-only fields, ids given by name too). */
function skippedNote(mapper: RowMapper): string | undefined {
  const parts: string[] = [];
  if (mapper.skippedReadOnly.size) parts.push(`${[...mapper.skippedReadOnly].join(', ')} (read-only)`);
  if (mapper.skippedIds.size) parts.push(`${[...mapper.skippedIds].join(', ')} (ids of the account the file came from; the name columns beside them are used)`);
  return parts.length ? `columns not imported: ${parts.join('; ')}` : undefined;
}

function wantedNames(named: Array<{ refs: NonNullable<MappedRow['refs']> }>): Map<RefKind, Set<string>> {
  const out = new Map<RefKind, Set<string>>();
  for (const { refs } of named) for (const r of refs) out.set(r.kind, (out.get(r.kind) ?? new Set()).add(nameKey(r.name)));
  return out;
}

/**
 * The column names of a CSV file's header, or the keys of the first record of NDJSON/JSON (a file that
 * cannot be read this way gives a key nothing knows, so the field metadata is read to be safe).
 */
function firstKeys(file: string, format: InputFormat): string[] {
  let head = '';
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(65536);
      head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return ['\u0000unreadable'];
  }
  const first = head.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
  if (format === 'csv') return [...first.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')).filter((h, i, all) => h !== '' || i < all.length - 1);
  try {
    const rec = JSON.parse(format === 'ndjson' ? first : head) as unknown;
    const one = Array.isArray(rec) ? rec[0] : rec;
    return one && typeof one === 'object' ? Object.keys(one) : [];
  } catch {
    return ['\u0000unparsed'];
  }
}

async function* mappedRows(file: string, format: InputFormat, mapper: RowMapper): AsyncGenerator<{ line: number } & MappedRow> {
  for await (const row of readRows(file, format, (h) => mapper.setCsvHeader(h))) {
    if (row.kind === 'error') yield { line: row.line, body: {}, issues: [{ field: 'row', rule: row.rule }] };
    else {
      const m = row.kind === 'csv' ? mapper.fromCsv(row.cells) : mapper.fromJson(row.value);
      yield { line: row.line, ...m };
    }
  }
}

/** The hook HttpPort calls after an ambiguous failure of this row's POST: did it land? */
function reconcileHook(
  http: HttpPort, reconciler: Reconciler, row: { line: number; body: Record<string, unknown>; sentAt: number }, taken: Set<string>, unsettled: Set<number>,
): (() => Promise<HttpResponse | undefined>) | undefined {
  if (reconciler.kind === 'none') return undefined;
  return async () => {
    try {
      const found = (await reconciler.find(http, [row], row.sentAt, taken)).get(row.line);
      return found ? { status: 200, headers: {}, body: { success: true, data: found } } : undefined;
    } catch (err) {
      // The create may have landed and we could not tell: never resent in this run, looked up again by --resume.
      unsettled.add(row.line);
      throw err;
    }
  };
}

/**
 * A failure that may not happen again (rate limit, network, 5xx after every retry) for a row that
 * did not land: worth sending again on --resume. Refusals (4xx) and unknown outcomes are not.
 */
function isPassing(err: CliError): boolean {
  if (err instanceof AmbiguousWriteError || err instanceof ValidationError || err instanceof AuthError || err instanceof NotFoundError || err instanceof UsageError) return false;
  if (err instanceof ApiError) return err.status >= 500 || err.status === 429;
  return true;
}

async function record(log: Journal, outcomes: Map<number, Outcome>, outcome: Outcome, extra: Record<string, unknown> = {}): Promise<void> {
  outcomes.set(outcome.line, outcome);
  await log.append({ ...outcome, ...extra });
}

function invalidRowsError(invalid: Array<{ line: number; issues: Issue[] }>, file: string): ValidationError {
  const issues = invalid.slice(0, MAX_REPORTED).flatMap((r) => r.issues.map((i) => ({ field: `line ${r.line}: ${i.field}`, rule: i.rule })));
  const more = invalid.length > MAX_REPORTED ? ` (${invalid.length - MAX_REPORTED} more rows not shown)` : '';
  return new ValidationError(issues, `${invalid.length} row${invalid.length > 1 ? 's' : ''} of ${file} broke a rule${more}; nothing was sent. Fix them, or pass --skip-invalid to import the others (skipped rows are listed in the results file).`);
}

async function printPlan(ctx: Context, http: HttpPort, o: ImportOptions, reconciler: Reconciler, n: { total: number; valid: number; invalid: number; done: number }): Promise<void> {
  const op = o.resource.op;
  const toSend = Math.max(0, (o.skipInvalid ? n.valid : n.total) - n.done);
  const cost = (op.cost ?? 1) * toSend;
  const budget = await budgetProbe(ctx, http, o.resource.name);
  const windows = budget ? Math.ceil(cost / budget.limit) : undefined;
  const plan = {
    resource: o.resource.name,
    operation: `${op.method} ${op.path}`,
    rows: n.total,
    valid: n.valid,
    invalid: n.invalid,
    already_done: n.done,
    to_send: toSend,
    cost_per_row: op.cost,
    total_cost: cost,
    budget_per_window: budget?.limit ?? null,
    window_sec: budget?.windowSec ?? null,
    daily_budget_left: http.daily?.remaining ?? null,
    estimated_seconds: windows !== undefined && budget ? Math.max(0, (windows - 1) * budget.windowSec) + (toSend ? 1 : 0) : null,
    concurrency: reconciler.kind === 'none' ? 1 : o.concurrency,
    reconcile: reconciler.describe,
  };
  const lines = [
    `Dry run: nothing was sent.`,
    `  ${plan.operation} for ${toSend} row${toSend === 1 ? '' : 's'} (${n.valid} valid, ${n.invalid} invalid${n.done ? `, ${n.done} done by an earlier run` : ''})`,
    `  cost ${plan.cost_per_row} per row, ${cost} in all${http.daily ? ` (${http.daily.remaining.toLocaleString('en-US')} left today)` : ''}`,
    budget ? `  at the current budget of ${budget.limit} per ${budget.windowSec} s window: about ${formatDuration(plan.estimated_seconds ?? 0)}` : '  budget unknown (no read answered with x-ratelimit-limit)',
    `  concurrency ${plan.concurrency}; lost answers: ${plan.reconcile}`,
  ];
  await renderDocument(ctx, { json: plan, text: lines.join('\n') });
}

async function printUpsertSummary(ctx: Context, o: ImportOptions, n: Record<string, number>): Promise<void> {
  await renderDocument(ctx, {
    json: { resource: o.resource.name, ...n, results: o.resultsPath },
    text: `Upserted ${o.resource.name}: ${n.created} created, ${n.updated} updated, ${n.unchanged} unchanged; ${n.failed} failed, ${n.skipped} skipped. Results: ${o.resultsPath}`,
  });
}

async function printSummary(ctx: Context, o: ImportOptions, s: { created: number; failed: number; skipped: number }): Promise<void> {
  await renderDocument(ctx, {
    json: { resource: o.resource.name, ...s, results: o.resultsPath },
    text: `Imported ${s.created} ${o.resource.name}; ${s.failed} failed, ${s.skipped} skipped. Results: ${o.resultsPath}`,
  });
}

export function defaultStatePath(file: string): string {
  return `${file}.import-state.json`;
}

export function defaultResultsPath(file: string): string {
  return `${file}.results.ndjson`;
}
