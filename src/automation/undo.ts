import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { callOperation, recordsOf } from '../api/call.js';
import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { CliError, DailyBudgetError, NotFoundError, PartialFailureError, UsageError, ValidationError } from '../core/errors.js';
import type { HttpPort } from '../core/http-port.js';
import { prepare, read, readerOf, type Reader } from '../entry/prepare.js';
import type { HttpResponse } from '../http/types.js';
import { renderDocument } from '../output/report.js';
import { accountOf, describeAccount, sameAccount } from '../runs/account.js';
import { recordedValue } from '../runs/command-line.js';
import { isPassing } from '../runs/passing.js';
import { listRecords, loadRun, runsDir, type RunRecord } from '../runs/registry.js';
import { itemStates, openRun, runInput, type ItemState, type Run } from '../runs/run.js';
import { holds } from './bulk-update-changes.js';
import { priorValues } from './bulk-update.js';
import { reconcilerFor } from './reconcile.js';
import { followerOps, followersOf, linkId, mergeOpsOf, PARTICIPANT_OPS, participantsOf, type MergeKind } from './merge-keep.js';
import { recordOps, type RecordOps } from './record-ops.js';
import { announceMerge, exists, sendMerge } from './merge-send.js';
import { areaOf, conflictsOf, planText, remergesOf, runWrites, undoPlan, type Conflict, type UndoItem, type UndoPlan } from './undo-plan.js';

type Rec = Record<string, unknown>;

export interface UndoFlags {
  id?: string;
  last: boolean;
  dryRun: boolean;
  force: boolean;
  resume: boolean;
  newRun: boolean;
  concurrency?: number;
}

/** Kinds of run that write to the account (an export or a backup only reads: nothing to undo). */
const WRITING = new Set(['import', 'bulk-update', 'restore', 'undo', 'normalize', 'dedupe', 'command', 'mcp', 'upsert', 'apply', 'destroy']);

/** What became of one item of the undo. */
type Outcome = { key: string; area: string; record?: string | number; merged?: string | number } & (
  | { status: 'deleted' | 'restored' | 'recreated' | 'already'; id?: string | number }
  | { status: 'remerged'; into: number }
  | { status: 'conflict'; conflicts: Conflict[] }
  | { status: 'failed'; error: string }
);

/**
 * Takes back what a run did, from its journal alone (src/automation/undo-plan.ts), as a run of its own
 * (kind undo, journal under <configDir>/runs/undo/<run id>.ndjson): the plan first, then a terminal
 * asks (--yes off one); each record is read before its write, and one the run's values no longer hold
 * (changed by someone since) is a conflict, left alone and listed unless --force. A write the undo
 * announced and a kill cut off is settled by reading the record (a delete of a record already gone is
 * done; a re-create is looked up by its content), so --resume writes nothing twice. The undo's journal
 * has the same entries as any run, so undoing an undo redoes.
 */
export async function runUndo(ctx: Context, flags: UndoFlags): Promise<void> {
  if (flags.id !== undefined && flags.last) throw new UsageError('<id>, --last: give a run id or --last, not both');
  if (flags.id === undefined && !flags.last) throw new UsageError('<id>: give the id of the run to undo (crmctl runs list shows them), or --last');
  const account = await accountOf(ctx);
  const id = flags.id ?? lastRun(ctx, account);
  const loaded = loadRun(ctx.env, id);
  if (!loaded) throw new NotFoundError(`run ${id}: no such run in ${runsDir(ctx.env)}`, 'crmctl runs list shows the runs of this account.');
  const { record, journal } = loaded;
  if (!sameAccount(record.account, account)) {
    throw new UsageError(
      `run ${id} belongs to ${describeAccount(record.account)}; this command acts on ${describeAccount(account)}. An undo never crosses accounts.`,
      'Undo it with the credentials of that account (--profile NAME).',
    );
  }
  if (!WRITING.has(record.kind)) throw new UsageError(`run ${id} is ${record.kind === 'export' ? 'an export' : `a ${record.kind}`}: it wrote nothing to the account, so there is nothing to undo`);
  const header = journal.header;
  if (!header) throw new UsageError(`run ${id}: its journal ${record.journal} is missing or empty; an undo is derived from the journal alone`);
  // One kind per run (an import's resource, a bulk update's area); a run of several kinds names each item's.
  const area = areaOf(header);
  if (!journal.end) ctx.warn(`run ${id} did not finish (${record.status}): undoing what its journal says it did`);

  const dir = join(runsDir(ctx.env), 'undo');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // An undo's input already says what it undid (`undo of run …`).
  const describe = record.kind === 'undo' ? record.input : `${record.kind} ${record.input}`;
  const opened = await openRun(ctx, {
    kind: 'undo',
    journal: join(dir, `${id}.ndjson`),
    input: runInput({ undoes: id }, `undo of run ${id} (${describe})`),
    resume: flags.resume,
    newRun: flags.newRun,
    dryRun: flags.dryRun,
    header: { undoes: id, ...(area ? { area } : {}), undone_kind: record.kind },
  });
  if (opened.state === 'done') return;
  const run = opened.run;
  // What an earlier try of this undo settled is not done again; what it left in flight is settled by reading.
  const states = itemStates(opened.state === 'resume' ? opened.entries : []);
  const settled = new Set([...states.values()].filter((s) => !s.unsettled).map((s) => s.key));
  // An undo of the undo of a dedupe merges the re-created records again (a redo through the service's merge).
  const remerges = record.kind === 'undo' && header.undone_kind === 'dedupe' ? remergesOf(journal.items) : [];
  const plan = undoPlan(runWrites(journal.items), area, settled, remerges);
  // A single write that is no create, update or delete of a record (src/automation/record-write.ts) is kept, not undone.
  // An apply's other records (kinds with no read to check them first) are destroy's to remove: its state file names them.
  const elsewhere = record.kind === 'apply' && typeof journal.header?.state === 'string' ? `; crmctl destroy --state ${journal.header.state} removes what that apply created` : '';
  for (const s of itemStates(journal.items).values()) {
    if (s.write?.op === 'call' && (s.last.status === 'done' || s.unsettled)) plan.cannot.push({ key: s.key, why: `${String(s.write.operation)} is not a create, update or delete of a record; crmctl cannot take it back${elsewhere}` });
  }

  const http = await ctx.http();
  ctx.io.stderr.write(`${planText(plan, { runId: id, describe, doneEarlier: settled.size, daily: http.daily })}\n`);
  if (flags.dryRun) {
    await run.close();
    await renderDocument(ctx, { json: { dry_run: true, ...planJson(id, plan) }, text: 'Dry run: nothing was written.' });
    return;
  }
  if (plan.items.length) await ctx.confirm(`Undo run ${id}: ${actionWords(plan)}?`);

  const outcomes: Outcome[] = [];
  let spent: DailyBudgetError | undefined;
  let retryable = 0;
  run.watchSignals('writes');
  try {
    await run.begin();
    const undo = new ItemUndo(ctx, http, run, flags.force, states);
    const one = async (item: UndoItem): Promise<void> => {
      let outcome: Outcome | Outcome[];
      try {
        outcome = item.action === 'unmerge' ? await undo.unmerge(item) : item.action === 'remerge' ? await undo.remerge(item) : await undo.apply(item, states.get(item.key));
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
        if (err instanceof DailyBudgetError) {
          spent ??= err;
          run.requestStop();
        }
        const again = undo.unsettled.has(item.key) || isPassing(err);
        if (again) retryable++;
        outcome = { key: item.key, area: item.area, status: 'failed', ...(item.record !== undefined ? { record: item.record } : {}), error: err.message };
        await run.failed(item.key, err.message, { record: item.record, ...(again ? { retry: true } : {}) });
      }
      outcomes.push(...[outcome].flat());
    };
    const inFlight = new Set<Promise<void>>();
    for (const item of plan.items) {
      if (run.stopping) break;
      const p = one(item).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= (flags.concurrency ?? 4)) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);

    const n = (s: Outcome['status']) => outcomes.filter((o) => o.status === s).length;
    const counts = { deleted: n('deleted'), restored: n('restored'), recreated: n('recreated'), ...(plan.counts.remerge ? { merged: n('remerged') } : {}), already: n('already'), conflicts: n('conflict'), failed: n('failed') };
    const said = `${counts.deleted} deleted, ${counts.restored} set back, ${counts.recreated} created again, ${counts.merged !== undefined ? `${counts.merged} merged again, ` : ''}${counts.already} already undone; ${counts.conflicts} conflicts, ${counts.failed} failed`;
    const remerged = outcomes.flatMap((o) => (o.status === 'remerged' ? [o] : []));
    const recreated = outcomes.filter((o) => o.status === 'recreated' && o.merged !== undefined);
    if (spent) {
      await run.pause(said);
      throw spent;
    }
    if (run.stopping) {
      await run.pause(said);
      throw run.stoppedError(said);
    }
    const conflicts = outcomes.flatMap((o) => (o.status === 'conflict' ? o.conflicts.map((c) => ({ area: o.area, record: o.record, ...c })) : []));
    const failures = outcomes.flatMap((o) => (o.status === 'failed' ? [{ area: o.area, record: o.record ?? null, key: o.key, error: o.error }] : []));
    await renderDocument(ctx, {
      json: {
        run: id, undo_run: run.id, area: plan.area, ...counts, conflict_list: conflicts, failures,
        ...(recreated.length ? { recreated: recreated.map((o) => ({ merged: o.merged, id: (o as { id?: unknown }).id })) } : {}),
        ...(remerged.length ? { remerged: remerged.map((o) => ({ id: o.record, into: o.into })) } : {}),
      },
      text: [
        ...conflicts.map((c) => `conflict: ${c.area} ${String(c.record)} ${c.field}: the run wrote ${c.wrote}, now ${c.now} (left alone)`),
        ...failures.map((f) => `failed: ${f.area} ${String(f.record ?? f.key)}: ${f.error}`),
        ...recreated.map((o) => `${o.area} ${String(o.merged)} created again as ${String((o as { id?: unknown }).id)} (a new id: the old one cannot come back)`),
        ...remerged.map((o) => `${o.area} ${String(o.record)} merged into ${o.into} again (the service's merge: its links, participations and followers went with it)`),
        `Undo of run ${id}: ${said} (undo run ${run.id}).`,
      ].join('\n'),
    });
    if (retryable) await run.pause(said);
    else await run.finish(said, counts);
    if (counts.conflicts || counts.failed) {
      throw new PartialFailureError(
        `${counts.conflicts + counts.failed} of ${plan.items.length} ${plan.area} were not undone (${counts.conflicts} changed since the run, ${counts.failed} failed)`,
        retryable
          ? `Those that failed on a passing error (budget, network, 5xx) are tried again by crmctl undo ${id} --resume; nothing undone is written twice.`
          : `A conflict is a record someone changed since the run: it is left alone. crmctl undo ${id} --new-run --force writes over them (records already undone are read and left as they are).`,
      );
    }
  } catch (err) {
    throw await run.stoppedBy(err);
  } finally {
    await run.close();
  }
}

/** The newest run of this account that wrote something (an unfinished undo is skipped: `undo --last --resume` continues it). */
function lastRun(ctx: Context, account: Parameters<typeof listRecords>[1]): string {
  const runs = listRecords(ctx.env, account).filter((r: RunRecord) => WRITING.has(r.kind) && !(r.kind === 'undo' && r.status !== 'done'));
  if (!runs[0]) throw new UsageError(`--last: this account (${describeAccount(account!)}) has no run that wrote anything`, 'crmctl runs list --all-accounts shows the runs of every account.');
  return runs[0].id;
}

function actionWords(plan: UndoPlan): string {
  const parts = [];
  if (plan.counts.delete) parts.push(`delete ${plan.counts.delete} ${plan.area}`);
  if (plan.counts.restore) parts.push(`set back ${plan.counts.restore} ${plan.area}`);
  if (plan.counts.recreate) parts.push(`create ${plan.counts.recreate} ${plan.area} again`);
  if (plan.counts.unmerge) parts.push(`create ${plan.counts.unmerge} merged ${plan.area} again and move ${plan.linksBack} links back`);
  if (plan.counts.remerge) parts.push(`merge ${plan.counts.remerge} ${plan.area} into the records kept again`);
  return parts.join(', ');
}

function planJson(id: string, plan: UndoPlan): Rec {
  return { run: id, area: plan.area, to_delete: plan.counts.delete, to_set_back: plan.counts.restore, to_create_again: plan.counts.recreate, ...(plan.counts.unmerge ? { to_unmerge: plan.counts.unmerge, links_back: plan.linksBack, kept_back: plan.keptBack, participants_back: plan.participantsBack, followers_back: plan.followersBack, files_stay: plan.filesStay } : {}), ...(plan.counts.remerge ? { to_merge_again: plan.counts.remerge } : {}), cannot: plan.cannot, cost: plan.cost };
}

/** One item's undo: read, compare, write, journal. */
class ItemUndo {
  /** Items whose write may have landed and whose read back failed: --resume reads them again. */
  readonly unsettled = new Set<string>();
  private readonly reader: Reader;
  private readonly taken = new Set<string>();

  constructor(
    private readonly ctx: Context,
    private readonly http: HttpPort,
    private readonly run: Run,
    private readonly force: boolean,
    private readonly earlier: ReadonlyMap<string, ItemState> = new Map(),
  ) {
    this.reader = readerOf(http, (l) => ctx.debug(l));
  }

  /** Merges are undone one at a time, newest first: two merges into one record set its fields back in turn. */
  private merges: Promise<unknown> = Promise.resolve();

  /**
   * The undo of one merge, each part an item of its own (`<key>:create`, `<key>:<area>:<id>`, `<key>:kept`):
   * the merged record created again from its kept content, each link the merge moved pointed back at it
   * (a link someone re-pointed since is a conflict, left alone), the kept record's fields set back. A
   * part an earlier try settled is not written again; one a kill cut off is settled as any item is.
   */
  unmerge(item: UndoItem): Promise<Outcome[]> {
    const next = this.merges.then(() => this.unmergeNow(item));
    this.merges = next.catch(() => undefined);
    return next;
  }

  private async unmergeNow(item: UndoItem): Promise<Outcome[]> {
    const m = item.merge!;
    const out: Outcome[] = [];
    const part = async (sub: UndoItem): Promise<Outcome | undefined> => {
      const was = this.earlier.get(sub.key);
      if (was && !was.unsettled) return undefined;
      return this.apply(sub, was);
    };
    const createKey = `${item.key}:create`;
    const created = this.earlier.get(createKey);
    let newId = created && !created.unsettled && created.last.action === 'recreated' ? (created.last.id as string | number | undefined) : undefined;
    if (newId === undefined) {
      const o = (await part({ key: createKey, area: item.area, action: 'recreate', values: item.values ?? {} }))!;
      out.push({ ...o, ...(item.record !== undefined ? { merged: item.record } : {}) });
      newId = (o as { id?: string | number }).id;
    }
    if (newId === undefined || newId === null) throw new CliError(`${item.area} ${String(item.record)}: created again but its new id is unknown; its links were not moved back`);
    for (const l of m.links) {
      const archived = new Set(l.archived ?? []);
      for (const id of l.ids) {
        const sub: UndoItem = { key: `${item.key}:${l.area}:${id}`, area: l.area, action: 'restore', record: id, wrote: { [l.field]: m.into }, values: { [l.field]: Number(newId) } };
        const was = this.earlier.get(sub.key);
        if (was && !was.unsettled) continue;
        out.push(archived.has(id) ? await this.archivedBack(sub, l.field, m.into, Number(newId), was) : await this.apply(sub, was));
      }
    }
    // Participants and followers have no record to compare and set back: each part reads where things stand and writes only what is missing, so a kill mid-part is settled by the next try.
    const once = async (key: string, run: () => Promise<Outcome>) => {
      const was = this.earlier.get(key);
      if (!was || was.unsettled) out.push(await run());
    };
    for (const p of m.participants) await once(`${item.key}:participants:${p.deal}`, () => this.participantBack(`${item.key}:participants:${p.deal}`, p, m.into, Number(newId)));
    if (m.followers && (item.area === 'persons' || item.area === 'organizations')) {
      const kind = item.area;
      const followers = m.followers;
      await once(`${item.key}:followers`, () => this.followersBack(`${item.key}:followers`, kind, followers, m.into, Number(newId)));
    }
    if (m.prior) {
      const o = await part({ key: `${item.key}:kept`, area: item.area, action: 'restore', record: m.into, wrote: m.after ?? {}, values: m.prior });
      if (o) out.push(o);
    }
    // `into`: an undo of this undo merges the re-created record into it again (undo-plan.ts remergesOf).
    await this.run.done(item.key, { action: 'unmerged', record: item.record, id: newId, into: m.into });
    return out;
  }

  /**
   * The redo of an unmerge: the re-created record merged into the kept one again, as a dedupe merges
   * (what its own undo needs read and journaled first; a merge a kill cut off is settled by reading the
   * record: gone means merged). A re-created record deleted since by other hands is a conflict.
   */
  remerge(item: UndoItem): Promise<Outcome> {
    const next = this.merges.then(() => this.remergeNow(item));
    this.merges = next.catch(() => undefined);
    return next;
  }

  private async remergeNow(item: UndoItem): Promise<Outcome> {
    const kind = item.area as MergeKind;
    const ops = mergeOpsOf(kind);
    const id = Number(item.record);
    const into = item.remerge!.into;
    const done = (): Outcome => ({ key: item.key, area: item.area, status: 'remerged', record: id, into });
    if (!(await exists(this.reader, ops.get, id))) {
      const was = this.earlier.get(item.key);
      // Announced by an earlier try and gone: that merge landed.
      if (was?.unsettled && was.write) {
        await this.run.done(item.key, { record: id, action: 'merged', into, reconciled: true });
        return done();
      }
      return this.conflict(item, [{ field: '(record)', wrote: `merged into ${into}`, now: 'deleted' }]);
    }
    const prepared = await this.entry(() => prepare(this.reader, ops.merge, { params: { id }, body: { merge_with_id: into } }));
    await announceMerge(this.ctx, this.run, this.reader, kind, item.key, prepared, id, into);
    const outcome = await sendMerge(this.http, this.reader, ops, kind, prepared, id, into, () => this.unsettled.add(item.key));
    await this.run.done(item.key, { record: id, ...outcome });
    return done();
  }

  /**
   * A link the merge moved that was archived (a deal, a lead): the service refuses to change an archived
   * record, so it is un-archived (`is_archived: false` alone), pointed back, and archived again with the
   * reason it had. The un-archiving is journaled with that reason first, so a kill between the three
   * writes is finished by the next try, which archives it again.
   */
  private async archivedBack(item: UndoItem, field: string, into: number, newId: number, was: ItemState | undefined): Promise<Outcome> {
    const ops = recordOps(item.area);
    const id = item.record!;
    const cur = await this.current(ops, id);
    if (!cur) return this.conflict(item, [{ field: '(record)', wrote: 'it', now: 'deleted' }]);
    const now = linkId(cur[field]);
    const earlierPrior = was?.write?.prior as Rec | undefined;
    if (now === newId && cur.is_archived === true) return this.settle(item, earlierPrior ? 'restored' : 'already');
    if (now !== newId && now !== into && !this.force) return this.conflict(item, conflictsOf(cur, item.wrote ?? {}));
    const reason = earlierPrior?.archive_reason ?? cur.archive_reason;
    const again = { is_archived: true, ...(item.area === 'leads' && typeof reason === 'string' ? { archive_reason: reason } : {}) };
    if (cur.is_archived === true) {
      await this.run.sending(item.key, { op: 'update', kind: item.area, record: id, sent: { is_archived: false }, prior: again });
      await this.send(ops.update!, { params: { id: String(id) }, body: { is_archived: false } });
    }
    if (now !== newId) await this.send(ops.update!, { params: { id: String(id) }, body: item.values ?? {} });
    await this.send(ops.update!, { params: { id: String(id) }, body: again });
    return this.settle(item, 'restored');
  }

  /**
   * A deal the merged person took part in: the re-created person takes part again, and the participant
   * row the merge gave the kept person goes (the kept person stays one where it was before the merge).
   * The row gone since (someone removed it) is a conflict, left alone.
   */
  private async participantBack(key: string, p: { deal: number; id: number; kept_before: boolean }, into: number, newId: number): Promise<Outcome> {
    const item = { key, area: 'deals', record: p.deal };
    let rows: Rec[];
    try {
      rows = await participantsOf(this.reader, p.deal);
    } catch (err) {
      if (err instanceof NotFoundError) return this.conflict(item, [{ field: 'participants', wrote: `person ${into}`, now: 'the deal is deleted' }]);
      throw err;
    }
    const keptRows = rows.filter((r) => linkId(r.person_id) === into);
    const hasNew = rows.some((r) => linkId(r.person_id) === newId);
    // The rows of the kept person beyond the one it had before: the one the merge gave it (a service that folds a merged row into the kept person's own leaves none).
    const moved = keptRows.length - (p.kept_before ? 1 : 0);
    // Not a participant before the merge and none now: someone removed the row the merge gave it.
    if (!hasNew && !p.kept_before && moved < 1 && !this.force) return this.conflict(item, [{ field: 'participants', wrote: `person ${into}`, now: `person ${into} is no longer a participant` }]);
    if (!hasNew) await this.send(PARTICIPANT_OPS.add, { params: { id: p.deal }, body: { person_id: newId } });
    if (moved >= 1) {
      const row = keptRows.find((r) => Number(r.id) === p.id) ?? keptRows.at(-1)!;
      await this.send(PARTICIPANT_OPS.remove, { params: { id: p.deal, deal_participant_id: Number(row.id) } });
    }
    return this.settle(item, hasNew && moved < 1 ? 'already' : 'restored');
  }

  /**
   * The users who followed the merged record follow the re-created one again; those the merge made
   * follow the kept record stop (those who followed it before stay). One who stopped following the kept
   * record since is a conflict, left alone. The re-created record's own automatic follower (its owner,
   * on create) goes when it did not follow the merged record.
   */
  private async followersBack(key: string, kind: MergeKind, f: { moved: number[]; kept_before: number[] }, into: number, newId: number): Promise<Outcome> {
    const ops = followerOps(kind);
    const onNew = new Set(await followersOf(this.reader, kind, newId));
    const onKept = new Set(await followersOf(this.reader, kind, into));
    const before = new Set(f.kept_before);
    const conflicts: Conflict[] = [];
    let wrote = false;
    for (const u of f.moved) {
      // Followed the kept record through the merge (not before it) and follows neither now: someone changed it.
      if (!onNew.has(u) && !before.has(u) && !onKept.has(u) && !this.force) {
        conflicts.push({ field: 'followers', wrote: `user ${u}`, now: `user ${u} no longer follows it` });
        continue;
      }
      if (!onNew.has(u)) {
        await this.send(ops.add, { params: { id: newId }, body: { user_id: u } });
        wrote = true;
      }
      if (!before.has(u) && onKept.has(u)) {
        await this.send(ops.remove, { params: { id: into, follower_id: u } });
        wrote = true;
      }
    }
    const moved = new Set(f.moved);
    for (const u of onNew) {
      if (moved.has(u)) continue;
      await this.send(ops.remove, { params: { id: newId, follower_id: u } });
      wrote = true;
    }
    const item = { key, area: kind, record: into };
    if (conflicts.length) return this.conflict(item, conflicts);
    return this.settle(item, wrote ? 'restored' : 'already');
  }

  /** One write of a part that settles itself by reading (participants, followers): through the entry, never sent blindly twice. */
  private async send(op: Operation, raw: { params: Record<string, unknown>; body?: Rec }): Promise<void> {
    const input = await this.entry(() => prepare(this.reader, op, raw));
    await callOperation(this.http, op, input, { idempotent: false });
  }

  async apply(item: UndoItem, earlier: ItemState | undefined): Promise<Outcome> {
    // A write this undo announced before a kill (or an answer nobody knows): the decision was made then.
    const pending = earlier?.unsettled && earlier.write ? earlier : undefined;
    const ops = recordOps(item.area);
    if (item.action === 'recreate') return this.recreate(ops, item, pending);
    const id = item.record!;
    const current = await this.current(ops, id);
    if (item.action === 'delete') {
      if (!current) return this.settle(item, pending ? 'deleted' : 'already');
      if (!pending) {
        const conflicts = conflictsOf(current, item.wrote ?? {});
        if (conflicts.length && !this.force) return this.conflict(item, conflicts);
      }
      const input = await this.entry(() => prepare(this.reader, ops.delete!, { params: { id: String(id) } }));
      await this.run.sending(item.key, { op: 'delete', kind: item.area, record: id, deleted: recordedValue(current, this.ctx.knownSecrets()) });
      try {
        await callOperation(this.http, ops.delete!, input);
      } catch (err) {
        // Gone already (someone, or this write before its answer was lost): what the undo wanted.
        if (!(err instanceof NotFoundError)) throw err;
      }
      return this.settle(item, 'deleted');
    }
    // restore: the fields the run changed, back to what they were.
    if (!current) return this.conflict(item, [{ field: '(record)', wrote: 'it', now: 'deleted' }]);
    const values = item.values ?? {};
    if (holds(current, values)) return this.settle(item, pending ? 'restored' : 'already');
    if (!pending) {
      const conflicts = conflictsOf(current, item.wrote ?? {});
      if (conflicts.length && !this.force) return this.conflict(item, conflicts);
    }
    const update = ops.update!;
    const input = await this.entry(() => prepare(this.reader, update, { params: { id: String(id) }, body: values }));
    const body = input.body as Rec;
    await this.run.sending(item.key, { op: 'update', kind: item.area, record: id, sent: body, prior: priorValues(current, body) });
    // A lost answer is settled by reading the record back, never by sending blindly.
    const reconcile = async (): Promise<HttpResponse | undefined> => {
      try {
        const now = await this.current(ops, id);
        return now && holds(now, body) ? { status: 200, headers: {}, body: { success: true, data: now } } : undefined;
      } catch (err) {
        this.unsettled.add(item.key);
        throw err;
      }
    };
    await callOperation(this.http, update, input, { idempotent: false, reconcile });
    return this.settle(item, 'restored');
  }

  /** A record the run deleted, created again from the content its journal kept (a new id: the service never reuses one). */
  private async recreate(ops: RecordOps, item: UndoItem, pending: ItemState | undefined): Promise<Outcome> {
    const create = ops.create!;
    const reconciler = reconcilerFor(ops.area);
    if (pending?.write?.sent) {
      if (reconciler.kind === 'none') throw new CliError(`outcome unknown: the undo stopped while this record was being created, and ${ops.area} have no safe way to check; not sent again (check the account)`);
      const found = (await reconciler.find(this.http, [{ line: 0, body: pending.write.sent as Rec }], pending.since ?? Date.now(), this.taken)).get(0);
      if (found) return this.settle(item, 'recreated', found.id as string | number);
    }
    const input = await this.entry(() => prepare(this.reader, create, { body: item.values ?? {} }));
    const sentAt = Date.now();
    await this.run.sending(item.key, { op: 'create', kind: item.area, at: sentAt, sent: input.body as Rec });
    const reconcile = reconciler.kind === 'none' ? undefined : async (): Promise<HttpResponse | undefined> => {
      try {
        const found = (await reconciler.find(this.http, [{ line: 0, body: input.body as Rec }], sentAt, this.taken)).get(0);
        return found ? { status: 200, headers: {}, body: { success: true, data: found } } : undefined;
      } catch (err) {
        this.unsettled.add(item.key);
        throw err;
      }
    };
    const { envelope } = await callOperation(this.http, create, input, { reconcile });
    const rec = recordsOf(create, envelope) as Rec | null;
    if (rec?.id !== undefined && rec.id !== null) this.taken.add(String(rec.id));
    return this.settle(item, 'recreated', (rec?.id ?? null) as string | number);
  }

  /** The record as it is now; undefined when it is gone. */
  private async current(ops: RecordOps, id: string | number): Promise<Rec | undefined> {
    try {
      const rec = (await read(this.reader, ops.get!, { params: { id: String(id) } })) as Rec | null;
      // A deleted record some kinds still answer with (v1's active_flag, a deal's status).
      return rec && rec.is_deleted !== true && rec.status !== 'deleted' ? rec : undefined;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  /** A body the entry refuses (a prior value the service no longer takes) fails this item only. */
  private async entry<T>(make: () => Promise<T>): Promise<T> {
    try {
      return await make();
    } catch (err) {
      if (err instanceof ValidationError) throw new CliError(err.issues.map((i) => `${i.field}: ${i.rule}`).join('; '));
      throw err;
    }
  }

  private async settle(item: Pick<UndoItem, 'key' | 'area' | 'record'>, status: 'deleted' | 'restored' | 'recreated' | 'already', newId?: string | number): Promise<Outcome> {
    const record = item.record;
    await this.run.done(item.key, { action: status, ...(record !== undefined ? { record } : {}), ...(newId !== undefined ? { id: newId } : {}) });
    return { key: item.key, area: item.area, status, ...(record !== undefined ? { record } : {}), ...(newId !== undefined ? { id: newId } : {}) };
  }

  private async conflict(item: Pick<UndoItem, 'key' | 'area' | 'record'>, conflicts: Conflict[]): Promise<Outcome> {
    await this.run.done(item.key, { action: 'conflict', record: item.record, conflicts });
    return { key: item.key, area: item.area, status: 'conflict', record: item.record, conflicts };
  }
}
