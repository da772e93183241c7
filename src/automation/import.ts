import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { callOperation, recordsOf } from '../api/call.js';
import { checkReader, prepare, type Prepared, type Reader } from '../entry/prepare.js';
import { renderDocument } from '../output/report.js';
import type { Context } from '../core/context.js';
import { CliError, DailyBudgetError, PartialFailureError, UsageError, ValidationError } from '../core/errors.js';
import type { HttpPort } from '../core/http-port.js';
import type { HttpResponse } from '../http/types.js';
import { hashFile } from '../runs/fingerprint.js';
import { isPassing } from '../runs/passing.js';
import { itemStates, openRun, runInput, type ItemEntry, type Run, type RunInput } from '../runs/run.js';
import { Slots } from '../core/slots.js';
import { formatDuration, Progress } from './progress.js';
import { markerFor, reconcilerFor, type Reconciler } from './reconcile.js';
import { readOnlyFields, type ImportResource } from './resources.js';
import { RowMapper, type MappedRow } from './row-mapper.js';
import { addVariations, type VariationInput } from './product-variations.js';
import { linkNames } from '../names/links/resolver.js';
import { readRows, type InputFormat } from './rows.js';
import type { Issue } from './validate-body.js';
import { writeImportResults, type Outcome } from './results.js';
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
  /** Start a new run even when the journal holds one (that one's record is kept: src/runs/run.ts). */
  newRun?: boolean;
  dryRun: boolean;
  /** A run nobody continues or undoes (a sandbox loaded from files): its journal and record go when it finishes. */
  ephemeral?: boolean;
  /** import --upsert --match-on FIELD: rows update the record they match (src/automation/upsert-import.ts). */
  upsert?: { matchOn?: string };
}

const MAX_REPORTED = 50;

/**
 * Creates one record per input row. Every row is checked first (nothing is sent when one is bad,
 * unless --skip-invalid); then rows go out with bounded concurrency, paced to the cost budget, each
 * journaled as "sending" (fsynced, with the body as sent) before the request and with its id or error
 * after, in a run of src/runs (one account, one file content). A resumed run settles the rows left in
 * "sending" (looked up with the body they carried) before it sends anything, so no row is created twice.
 */
export async function runImport(ctx: Context, o: ImportOptions): Promise<void> {
  const { resource } = o;
  const op = resource.op;
  const reconciler = reconcilerFor(resource.name);
  if (!existsSync(o.file)) throw new UsageError(`--file: ${o.file} does not exist`);

  const upsert = o.upsert ? await (await import('./upsert-import.js')).ImportUpsert.open(ctx, resource.name, o.upsert.matchOn) : undefined;

  // The run this journal holds (src/runs/run.ts): one account, one kind, one file content.
  const fileHash = await hashFile(o.file);
  const matchOn = upsert ? upsert.key.label : null;
  const opened = await openRun(ctx, {
    kind: 'import',
    journal: o.statePath,
    input: importInput(resource.name, o.format, matchOn, o.file, fileHash),
    resume: o.resume,
    newRun: o.newRun ?? false,
    dryRun: o.dryRun,
    header: { resource: resource.name, file: o.file, format: o.format, file_hash: fileHash, match_on: matchOn },
    journalFlag: '--state',
    differs: (h) => (h.resource !== resource.name || h.format !== o.format || (h.match_on ?? null) !== matchOn
      ? `it imports ${String(h.resource)} (${String(h.format)}${h.match_on ? `, upsert on ${String(h.match_on)}` : ''}); this command imports ${resource.name} (${o.format}${matchOn ? `, upsert on ${matchOn}` : ''})`
      : `${o.file} changed since that run started (its content hash differs), so its lines are other rows now`),
    ephemeral: o.ephemeral,
  });
  if (opened.state === 'done') return;
  const run = opened.run;
  const runId = run.id;

  const outcomes = new Map<number, Outcome>();
  const pending = new Map<number, number>(); // line → first send time, still "sending"
  const retrying = new Set<number>(); // failed on a passing error without an ambiguous answer
  const pendingUpdates = new Set<number>(); // upsert: the write in flight was the PATCH of a matched record
  const lastSent = new Map<number, Record<string, unknown>>(); // the body each row's last send carried
  for (const s of itemStates(opened.state === 'resume' ? opened.entries : []).values()) {
    const line = Number(s.key);
    // Announced, then never sent (the run stopped first): a row like one not reached.
    if (s.unsettled && s.last.sent === false) continue;
    if (s.unsettled) {
      // Left in "sending", or failed on something passing (budget, network, 5xx after every retry):
      // looked up with what was sent before anything is sent, so it is never created twice.
      pending.set(line, s.since ?? Date.now());
      if (s.write?.op === 'update') pendingUpdates.add(line);
      if (s.write?.sent && typeof s.write.sent === 'object') lastSent.set(line, s.write.sent as Record<string, unknown>);
      if (s.last.status === 'failed') retrying.add(line);
    } else outcomes.set(line, outcomeOf(line, s.last));
  }
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

  // Linked records given by name (org_name, owner_email, stage_name, label_names...): every name looked
  // up once (src/names/links, one read per kind) before the rows are checked, so rows carry the ids
  // and a name that finds nothing or several records is a problem of its row.
  await mapper.resolveNames(linkNames(checkReader(reader), ctx), mappedRows(o.file, o.format, mapper));

  // Pass 1: every row checked before anything is written.
  const invalidByLine = new Map<number, Issue[]>();
  const keys = new Map<string, number>();
  let valid = 0;
  for await (const { line, body, issues } of mappedRows(o.file, o.format, mapper)) {
    const problems = [...issues];
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
    else valid++;
  }
  // Rows a killed run left in "sending": looked up with the body that was sent (names resolved to ids,
  // the marker), never with the file's row, whose names are not ids yet (issue 28.2). A PATCH is not
  // looked up by content: the row is matched again below, and finds its values there if it landed.
  const pendingBodies = [...pending.keys()].filter((line) => !pendingUpdates.has(line) && lastSent.has(line)).map((line) => ({ line, body: lastSent.get(line)! }));
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
  if (invalid.length && !o.skipInvalid) {
    await run.close();
    throw invalidRowsError(invalid, o.file);
  }

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

  const progress = new Progress(ctx, `import ${resource.name}`);
  // A spent daily budget refuses every row until midnight: stop, keep the journal, say when to resume.
  let spent: DailyBudgetError | undefined;
  run.watchSignals('rows');
  const retryable = new Set<number>(); // failed on a passing error (or unsettled): --resume sends them again
  try {
    await run.begin();

    // Ids rows of this import own: a look-up by content never gives one of them to another row.
    const taken = new Set([...outcomes.values()].flatMap((x) => ('id' in x ? [String(x.id)] : [])));
    // The settle step: rows a killed run left in "sending" are looked up before anything is sent.
    if (pendingBodies.length) {
      const since = Math.min(...pendingBodies.map((r) => pending.get(r.line)!));
      const found = reconciler.kind === 'none' ? new Map() : await reconciler.find(http, pendingBodies, since, taken);
      for (const r of pendingBodies) {
        const rec = found.get(r.line);
        if (rec) await record(run, outcomes, { line: r.line, id: rec.id as string | number }, { reconciled: true });
        // Without a look-up only rows known not to have landed (refused by the budget, never sent) go again.
        else if (reconciler.kind === 'none' && !retrying.has(r.line)) await record(run, outcomes, { line: r.line, error: 'outcome unknown: the run stopped while this row was being sent, and this resource has no safe way to check; not resent (check the account, then remove the line from the file)' });
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
    // A create's "sending" entry is written ahead of its turn (up to `ahead` rows): entries queued
    // while a disk sync runs share the next one (src/runs/journal.ts), so the syncs overlap the requests
    // instead of each row waiting for its own. A kill -9 leaves rows announced and never sent: --resume
    // looks them up like any row left in "sending", finds nothing, and sends them (never twice).
    const slots = new Slots(concurrency);
    const ahead = concurrency > 1 ? Math.max(256, concurrency * 32) : 1;
    const announce = async (line: number, body: Record<string, unknown>, at: number): Promise<Prepared> => {
      const input = await entry(body);
      await run.sendingAhead(String(line), { op: 'create', at, sent: input.body as Record<string, unknown> });
      return input;
    };
    // An upsert row that matched a record sends its PATCH (idempotent: the client may resend it) instead of the create.
    const sendRow = async (line: number, body: Record<string, unknown>, update?: UpdatePlan, variations?: VariationInput[]): Promise<void> => {
      const sentAt = Date.now();
      const announced = update ? undefined : announce(line, body, sentAt);
      // Announced and waiting for a slot: a failure of the entry waits for the turn that reports it.
      let onDisk = false;
      announced?.then(() => { onDisk = true; }, () => {});
      await slots.take();
      try {
        // The run stopped before this row's turn: never sent. An announced row says so (`sent: false`), so
        // --resume sends it without a look-up and an undo does not count it as a create that may have landed.
        if (run.stopping) {
          if (announced && (await announced.then(() => true, () => false))) await run.failed(String(line), 'not sent: the run stopped before this row', { retry: true, sent: false });
          return;
        }
        if (upsert && update) {
          const input = await upsert.updateInput(reader, update);
          // The values the PATCH replaces: an undo puts them back.
          await run.sending(String(line), { op: 'update', at: sentAt, record: update.id, sent: input.body as Record<string, unknown>, prior: upsert.priorOf(line, update.patch) });
          await callOperation(http, upsert.ops.update, input);
          await record(run, outcomes, Object.assign({ line, id: update.id }, { action: 'updated', changed: update.changed }));
          sent++;
          progress.update(outcomes.size, { total: valid, extra: `${failed} failed` });
          return;
        }
        // This row's turn: an entry not on disk yet is waited for now (its sync is not held for others).
        if (!onDisk) run.hurry();
        const input = await announced!;
        const { envelope } = await callOperation(http, op, input, { reconcile: reconcileHook(http, reconciler, { line, body, sentAt }, taken, unsettled) });
        const rec = recordsOf(op, envelope) as Record<string, unknown> | null;
        if (rec?.id !== undefined && rec.id !== null) taken.add(String(rec.id));
        // A product's variations follow its create; one the service refuses is said, the product stays.
        if (variations?.length && rec?.id != null) {
          for (const why of await addVariations(reader, http, rec.id, variations)) ctx.warn(`line ${line}: product ${String(rec.id)} created; ${why}`);
        }
        await record(run, outcomes, { line, id: (rec?.id ?? null) as string | number });
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
        if (err instanceof DailyBudgetError) {
          spent ??= err;
          run.requestStop();
        }
        failed++;
        if (unsettled.has(line)) {
          retryable.add(line);
          await record(run, outcomes, { line, error: `outcome unknown: the create may have landed and looking it up failed (${err.message}); --resume looks it up again and sends it only if it is not there` }, { retry: true, at: sentAt });
        } else if (isPassing(err)) {
          retryable.add(line);
          await record(run, outcomes, { line, error: err.message }, { retry: true, at: sentAt });
        } else await record(run, outcomes, { line, error: err.message });
      } finally {
        slots.release();
      }
      sent++;
      progress.update(outcomes.size, { total: valid, extra: `${failed} failed` });
    };

    budgetNotice(ctx, http, { tokens: Math.max(0, valid - outcomes.size) * (op.cost ?? 1), atLeast: op.cost == null });
    for await (const { line, body, variations } of mappedRows(o.file, o.format, mapper)) {
      if (run.stopping) break;
      if (outcomes.has(line)) continue;
      if (invalidLines.has(line)) {
        outcomes.set(line, { line, error: invalidLines.get(line)!.map((i) => `${i.field}: ${i.rule}`).join('; '), skipped: true });
        continue;
      }
      const k = reconciler.key?.(body);
      if (k !== undefined && existing.has(k) && !ours.has(String(existing.get(k)))) {
        failed++;
        await record(run, outcomes, { line, error: `name: ${JSON.stringify(k)} already exists (id ${existing.get(k)}); not created again` });
        continue;
      }
      const plan = upsert ? await upsert.decide(line, (await entry(body)).body as Record<string, unknown>) : undefined;
      if (plan?.action === 'unchanged') {
        // A write a killed run left in flight that now finds its values: it landed (then, or by the run before).
        const action = wasPending.has(line) ? (pendingUpdates.has(line) ? 'updated' : 'created') : 'unchanged';
        await record(run, outcomes, Object.assign({ line, id: plan.id }, { action }), wasPending.has(line) ? { reconciled: true } : {});
        continue;
      }
      // Upsert creates look the key up once more just before the create: another run may have made the record since the list was read.
      const late = plan?.action === 'create' ? await upsert!.createdMeanwhile(reader, line) : undefined;
      if (late) {
        await record(run, outcomes, Object.assign({ line, id: late }, { action: 'unchanged' }));
        ctx.warn(`line ${line}: ${upsert!.area.noun} ${String(late)} with this ${upsert!.key.label} was created by someone else while this import ran; not created again (upsert is not a lock: docs/upsert.md)`);
        continue;
      }
      const p = sendRow(line, reconciler.prepare(body, markerFor(runId, line)), plan?.action === 'update' ? plan : undefined, plan?.action === 'update' ? undefined : variations).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= ahead) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    progress.done(outcomes.size, { total: valid, extra: `${failed} failed` });

    if (upsert) for (const x of outcomes.values()) upsert.tag(x);
    const summary = writeImportResults(o.resultsPath, outcomes);
    ctx.debug(`pacing: ${pacer.stats.acquired} cost units, ${pacer.stats.waits} waits for the budget window`);
    const counts = upsert ? upsert.counts(outcomes.values()) : undefined;
    const said = counts ? `${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.failed} failed` : `${summary.created} created, ${summary.failed} failed`;
    if (spent) {
      await run.pause(said);
      throw spent;
    }
    if (run.stopping) {
      await run.pause(said);
      throw run.stoppedError(said, o.resultsPath);
    }
    if (summary.created + summary.failed + summary.skipped === 0 && sent === 0 && valid === 0) ctx.info('No rows to import.');
    if (upsert) {
      if (upsert.dropped.size) ctx.warn(`not changed on existing ${resource.name} (set only when one is created): ${[...upsert.dropped].join(', ')}`);
      await printUpsertSummary(ctx, o, counts!);
    } else await printSummary(ctx, o, summary);
    // Rows that failed on a passing error keep the run open for --resume; refusals do not (the file would have to change).
    if (retryable.size) await run.pause(said);
    // What it wrote, from its outcomes (every row's, earlier tries' too): created or updated, not left unchanged.
    else await run.finish(said, { ...summary, ...counts }, [...outcomes.values()].filter((x) => 'id' in x && (x as { action?: string }).action !== 'unchanged').length);
    if (summary.failed) {
      throw new PartialFailureError(
        `${summary.failed} of ${summary.created + summary.failed} rows failed; see ${o.resultsPath}`,
        retryable.size
          ? `${retryable.size} failed on a passing error (budget, network, 5xx): the same command with --resume sends them again (rows already created are never sent twice).${retryable.size < summary.failed ? ' The others were refused: correct them in a file of their own and import that.' : ''}`
          : 'The service refused them: correct those rows in a file of their own (the results file lists them by line) and import that; this run is finished, so its rows are never sent twice.',
      );
    }
  } catch (err) {
    // The journal is kept: the error report names the command line that continues the import.
    throw await run.stoppedBy(err);
  } finally {
    await run.close();
  }
}

/** One note for every column the import left out (an export's read-only fields, ids given by name too). */
function skippedNote(mapper: RowMapper): string | undefined {
  const parts: string[] = [];
  if (mapper.skippedReadOnly.size) parts.push(`${[...mapper.skippedReadOnly].join(', ')} (read-only)`);
  if (mapper.skippedIds.size) parts.push(`${[...mapper.skippedIds].join(', ')} (ids of the account the file came from; the name columns beside them are used)`);
  if (mapper.skippedKeys.size) parts.push(`${[...mapper.skippedKeys].join(', ')} (keys of the account the file came from; the values by field name in \`fields\` are used)`);
  return parts.length ? `columns not imported: ${parts.join('; ')}` : undefined;
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

/** A row's outcome, in memory and in the run's journal (keyed by its line). */
async function record(run: Run, outcomes: Map<number, Outcome>, outcome: Outcome, extra: Record<string, unknown> = {}): Promise<void> {
  outcomes.set(outcome.line, outcome);
  const { line, ...rest } = outcome;
  if ('error' in rest) {
    const { error, ...more } = rest;
    await run.failed(String(line), error, { ...more, ...extra });
  } else run.doneLater(String(line), { ...rest, ...extra });
}

/** A settled row's outcome as its last journal entry says. */
function outcomeOf(line: number, e: ItemEntry): Outcome {
  const done: Outcome = e.status === 'done' ? { line, id: e.id as string | number } : { line, error: String(e.error) };
  return e.action === undefined ? done : Object.assign(done, { action: e.action }, e.changed ? { changed: e.changed } : {});
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

/** What an import run is of: the kind, the format, the upsert key and the file's content (its hash). */
export function importInput(resource: string, format: InputFormat, matchOn: string | null, file: string, fileHash: string): RunInput {
  return runInput({ resource, format, match_on: matchOn, file: fileHash }, `${resource}${matchOn ? ` (upsert on ${matchOn})` : ''} from ${file}`);
}

export function defaultStatePath(file: string): string {
  return `${file}.import-state.json`;
}

export function defaultResultsPath(file: string): string {
  return `${file}.results.ndjson`;
}
