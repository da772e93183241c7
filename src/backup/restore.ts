/**
 * `crmctl restore DIR`: a backup into the current profile's account, on the run engine (src/runs):
 * its journal in DIR/restore/<account-key>/journal, tied to that account, the one --resume policy.
 *
 *   1. configuration: DIR/config through the apply engine (matched by natural key, so applying it
 *      again after a kill changes nothing);
 *   2. the target's names (users, pipelines, stages, labels, boards, phases, field catalogs);
 *   3. records kind by kind in dependency order (restore-plan.ts), read line by line from
 *      records/<kind>.ndjson (constant memory): each made portable (portable.ts) and written with the
 *      target's ids. Exactly once: "sending" (fsynced, with the body) before each create; the new id
 *      into the id map (fsynced) and "done" after. A create whose answer is lost is looked up by its
 *      content before it is sent again, in the run (the HTTP client's reconcile hook) and after a kill
 *      (--resume settles every "sending" entry first).
 *   4. report.json: what was carried, what failed, which users were mapped, what cannot be carried.
 */
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { callOperation, recordsOf } from '../api/call.js';
import type { Operation } from '../api/operation.js';
import { findByContent, matches } from '../automation/content-lookup.js';
import type { Context } from '../core/context.js';
import { CliError, DailyBudgetError, markResumable, NotFoundError, PartialFailureError, UsageError } from '../core/errors.js';
import type { HttpPort, UploadFile } from '../core/http-port.js';
import { prepare, readAll, readerOf, type Prepared } from '../entry/prepare.js';
import { writeJsonAtomic } from '../fs/atomic-write.js';
import { contentTypeOf } from '../http/multipart.js';
import { jsonSchemaOf, propertiesOf } from '../input/json-schema.js';
import { accountOf, describeAccount } from '../runs/account.js';
import { canonical, hashOf } from '../runs/fingerprint.js';
import { isPassing } from '../runs/passing.js';
import { openRun, type ItemEntry, type Run } from '../runs/run.js';
import { Progress } from '../automation/progress.js';
import { budgetNotice } from '../automation/budget-notice.js';
import { paths, readManifest, type Manifest } from './format.js';
import { accountKey, IdMap } from './idmap.js';
import { backupKind } from './kinds.js';
import { ensureOptions } from './restore-options.js';
import { toPortable } from './portable.js';
import { loadDescriptors, NEVER_CARRIED, NOT_RESTORED, RESTORE_STEPS, type RestoreStep } from './restore-plan.js';
import { fromPortable, UserMap } from './restore-body.js';
import { dirSide, type Side } from './side.js';

type Rec = Record<string, unknown>;

export interface RestoreOptions {
  dir: string;
  resume: boolean;
  newRun: boolean;
  dryRun: boolean;
  /** old e-mail → new e-mail (--map-user). */
  mapUser: Record<string, string>;
  defaultUser?: string;
  /**
   * The target is a sandbox just started from this backup (sandbox start --from DIR): it may listen where
   * the backup's own sandbox listened, and holds none of its records, so the same-account refusal does not apply.
   */
  intoNewSandbox?: boolean;
  /** The configuration step: the apply engine on the backup's config files (handed in by the command, which sits above this room). */
  apply: ConfigApply;
}

/** Applies configuration files, writing apply's report to the context's stdout (as JSON when the context asks). */
export type ConfigApply = (ctx: Context, files: string[]) => Promise<void>;

export interface RestoreReport {
  backup: string;
  target: string;
  kinds: Record<string, { in_backup: number; created: number; failed: number }>;
  failed: Array<{ kind: string; old: unknown; error: string }>;
  users: { mapped: Record<string, string>; to_default: string[] };
  not_carried: { fields: Record<string, string[]>; links: Record<string, number>; kinds: Record<string, string>; never: string[] };
}

export async function runRestore(ctx: Context, o: RestoreOptions): Promise<RestoreReport | undefined> {
  const manifest = readManifest(o.dir);
  const account = await accountOf(ctx);
  if (!o.intoNewSandbox && manifest.account.api_origin === account.origin && manifest.account.company_id === account.company_id) {
    throw new UsageError(
      `restore: ${o.dir} is a backup of this account (${describeAccount(account)}); restoring it here would create every record a second time`,
      'Restore into another account (--profile), or rehearse in a sandbox first: crmctl sandbox start --seed empty.',
    );
  }
  await loadDescriptors();
  const steps = RESTORE_STEPS().filter((s) => manifest.kinds[s.kind]);
  const key = accountKey(account);
  const base = paths.restore(o.dir, key);
  const idmap = new IdMap(paths.idmap(o.dir, key));
  const http = await ctx.http();
  if (o.dryRun) {
    await printPlan(ctx, http, manifest, steps, idmap, o.dir);
    return undefined;
  }

  mkdirSync(base, { recursive: true, mode: 0o700 });
  const opened = await openRun(ctx, {
    kind: 'restore',
    journal: join(base, 'journal'),
    input: { fingerprint: hashOf(canonical({ kinds: Object.fromEntries(Object.entries(manifest.kinds).map(([k, v]) => [k, v.sha256])), map_user: o.mapUser, default_user: o.defaultUser ?? null })), describe: `restore of ${o.dir} (a backup of ${manifest.account.company_name ?? manifest.account.api_origin})` },
    resume: o.resume,
    newRun: o.newRun,
    header: { dir: o.dir },
  });
  const reportFile = join(base, 'report.json');
  if (opened.state === 'done') return undefined;
  const run = opened.run;
  const r = new Restore(ctx, http, run, o, idmap, opened.state === 'resume' ? opened.entries : []);
  run.watchSignals('create');
  try {
    await run.begin();
    if (!r.configDone) await r.config();
    await r.prepareSides();
    budgetNotice(ctx, http, { tokens: (await remaining(manifest, steps, idmap)).reduce((n, x) => n + x.cost, 0) });
    for (const s of steps) await r.kind(s, manifest.kinds[s.kind]!.count);
    const report = r.report(manifest, describeAccount(account));
    writeJsonAtomic(reportFile, report);
    const created = Object.values(report.kinds).reduce((n, k) => n + k.created, 0);
    if (report.failed.length) {
      // Refusals are final (sending them again fails the same way): the run ends with them reported.
      await run.finish(`${created} records created, ${report.failed.length} failed`, { created, failed: report.failed.length });
      throw new PartialFailureError(`Restore finished with ${report.failed.length} record${report.failed.length > 1 ? 's' : ''} not created (listed in ${reportFile}).`);
    }
    await run.finish(`${created} records created`, { created });
    r.progress.done(created);
    return report;
  } catch (err) {
    if (err instanceof PartialFailureError || !run.resumable) throw err;
    await run.pause(`${r.created} records created`);
    throw markResumable(err);
  } finally {
    idmap.close();
    await run.close();
  }
}

async function printPlan(ctx: Context, http: HttpPort, m: Manifest, steps: RestoreStep[], idmap: IdMap, dir: string): Promise<void> {
  const { userOps } = await import('../api/operations/users.js');
  // One read: the target's daily budget comes with its answer.
  await callOperation(http, userOps.me, await prepare(ctx, userOps.me, {}));
  const rows = await remaining(m, steps, idmap);
  const total = rows.reduce((n, x) => n + x.cost, 0);
  const records = rows.reduce((n, x) => n + x.records, 0);
  const daily = http.daily;
  const days = daily ? (total <= daily.remaining ? 1 : 1 + Math.ceil((total - daily.remaining) / daily.limit)) : undefined;
  const width = Math.max(...rows.map((x) => x.kind.length), 4);
  const lines = [
    `Restore of ${dir} (${m.account.company_name ?? m.account.api_origin}) into this account: configuration first (crmctl apply -f ${paths.config(dir)} --dry-run shows its plan), then:`,
    ...rows.filter((x) => x.records).map((x) => `  ${x.kind.padEnd(width)}  ${String(x.records).padStart(7)} records  cost ${x.cost.toLocaleString('en-US')}`),
    `${records.toLocaleString('en-US')} records, cost ${total.toLocaleString('en-US')}${daily ? `: ${days === 1 ? 'fits in today\'s budget' : `${days} days of the daily budget`} (${daily.remaining.toLocaleString('en-US')} of ${daily.limit.toLocaleString('en-US')} left today)` : ''}.`,
    ...Object.keys(NOT_RESTORED).filter((k) => (m.kinds[k]?.count ?? 0) > 0).map((k) => `  not restored: ${k} (${m.kinds[k]!.count}): ${NOT_RESTORED[k]}`),
    'Dry run: nothing was sent.',
  ];
  const { renderDocument } = await import('../output/report.js');
  await renderDocument(ctx, { text: lines.join('\n'), json: { kinds: rows, records, cost: total, daily_limit: daily?.limit ?? null, daily_remaining: daily?.remaining ?? null, days: days ?? null, dry_run: true }, columns: ['records', 'cost', 'days'] });
}

/** Records per kind not yet in the id map, and what their writes cost (creates, then archiving). */
async function remaining(m: Manifest, steps: RestoreStep[], idmap: IdMap): Promise<Array<{ kind: string; records: number; cost: number }>> {
  const rows: Array<{ kind: string; records: number; cost: number }> = [];
  for (const s of steps) {
    const left = Math.max(0, m.kinds[s.kind]!.count - idmap.size(s.kind));
    // At most: a file's description is set only when it has one.
    const per = ((await s.create()).cost ?? 0) + (s.after ? ((await s.after.op()).cost ?? 0) : 0);
    rows.push({ kind: s.kind, records: left, cost: left * per });
  }
  return rows;
}

/**
 * Apply's JSON report (results when it wrote, the plan's actions when nothing changed) as one line:
 * `Configuration (DIR/config): 12 created, 0 updated, 0 replaced, 0 deleted, 35 unchanged; cost 430.`
 */
export function configLine(dir: string, json: string): string {
  const doc = JSON.parse(json) as { cost?: number; results?: Array<{ action: string }>; actions?: Array<{ action: string }> };
  const rows = doc.results ?? doc.actions ?? [];
  const n = (a: string) => rows.filter((r) => r.action === a).length;
  const cost = doc.results ? (doc.cost ?? 0) : 0;
  return `Configuration (${dir}): ${n('created') + n('create')} created, ${n('updated') + n('update')} updated, ${n('replaced') + n('replace')} replaced, ${n('deleted') + n('delete')} deleted, ${n('unchanged')} unchanged; cost ${cost}.`;
}

/** Every line of an ndjson file, one at a time. */
async function* lines(file: string): AsyncGenerator<Rec> {
  if (!existsSync(file)) return;
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of rl) if (line.trim()) yield JSON.parse(line) as Rec;
}

class Restore {
  configDone = false;
  /** The target refused a contact-sync member once: persons go without them (reported). */
  private noContactSync = false;
  created = 0;
  readonly progress: Progress;
  /** "sending" entries without an outcome: the body sent and when. */
  private readonly pending = new Map<string, { sent: Rec; at: number }>();
  /** `<kind>:<old id>:<after step>` done (restore-plan.ts `after`: archived, a file's description set). */
  private readonly afterDone = new Set<string>();
  /** `<kind>:<parent's old id>:trim` of parents whose list was made the backup's (restore-plan.ts `trim`). */
  private readonly trimmed = new Set<string>();
  private readonly refused = new Map<string, string>();
  private readonly counts: RestoreReport['kinds'] = {};
  private readonly notCarried = new Map<string, Set<string>>();
  /** `kind field` → the records whose link there mapped to nothing (keys: a record counted once over resumes). */
  private readonly unmappedLinks = new Map<string, Set<string>>();
  private readonly source: Side;
  private users!: UserMap;
  private target!: Side;

  constructor(private readonly ctx: Context, private readonly http: HttpPort, private readonly run: Run, private readonly o: RestoreOptions, private readonly idmap: IdMap, entries: ItemEntry[]) {
    this.progress = new Progress(ctx, 'restore');
    this.source = dirSide(o.dir);
    for (const e of entries) {
      if (e.key === 'config') this.configDone = true;
      else if (/:(archive|describe)$/.test(e.key)) this.afterDone.add(e.key);
      else if (e.key.endsWith(':trim')) this.trimmed.add(e.key);
      else if (e.status === 'sending') {
        this.pending.set(e.key, { sent: (e.sent as Rec) ?? {}, at: Date.parse(String(e.at)) || Date.now() });
        // What an earlier run could not carry goes into this run's report too (a resumed run may create none of that kind).
        this.noteLosses(e.key, (e.not_carried as string[] | undefined) ?? [], (e.unmapped as string[] | undefined) ?? []);
      }
      else {
        this.pending.delete(e.key);
        // A refusal is final; a passing failure (5xx, 429, network) is sent again by --resume.
        if (e.status === 'failed' && e.passing !== true) this.refused.set(e.key, String(e.error));
      }
    }
  }

  /** The configuration through the apply engine (idempotent: applied again after a kill, it changes nothing). */
  async config(): Promise<void> {
    // Scripts read the restore's summary on stdout: apply's own report is read as JSON and told in one line on stderr.
    let json = '';
    const stdout = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        json += chunk.toString('utf8');
        done();
      },
    });
    const quiet: Context = { ...this.ctx, io: { ...this.ctx.io, stdout, isStdoutTTY: false }, globals: { ...this.ctx.globals, output: 'json', query: undefined } };
    await this.o.apply(quiet, [paths.config(this.o.dir)]);
    this.ctx.io.stderr.write(`${configLine(paths.config(this.o.dir), json)}\n`);
    await this.run.append({ key: 'config', status: 'done', op: 'create' });
    this.configDone = true;
  }

  async prepareSides(): Promise<void> {
    // The entry writes custom fields by name through the profile's catalog cache: the configuration just
    // applied (or an account reset since) may have changed the keys, so the cache is read afresh.
    await (await import('../names/catalog.js')).forgetFields(this.ctx);
    const { liveSide } = await import('./live-side.js');
    this.target = (await liveSide(this.ctx)).side;
    this.users = new UserMap(this.source, this.target, this.o.mapUser, this.o.defaultUser);
    const missing = this.users.check();
    if (missing.length) {
      throw new UsageError(
        `restore: ${missing.length} user${missing.length > 1 ? 's' : ''} of the backup ${missing.length > 1 ? 'are' : 'is'} not in this account: ${missing.join(', ')}`,
        'Map each with --map-user OLD_EMAIL=NEW_EMAIL, or give --default-user EMAIL for the rest (listed in one warning).',
      );
    }
    const toDefault = this.users.toDefault();
    if (toDefault.length) this.ctx.warn(`${toDefault.length} user${toDefault.length > 1 ? 's' : ''} of the backup ${toDefault.length > 1 ? 'are' : 'is'} not in this account; their records go to ${this.o.defaultUser}: ${toDefault.join(', ')}`);
  }

  async kind(s: RestoreStep, count: number): Promise<void> {
    const counts = { in_backup: count, created: 0, failed: 0 };
    this.counts[s.kind] = counts;
    const op = await s.create();
    const accepted = new Set(Object.keys((op.body ? propertiesOf(jsonSchemaOf(op.body)) : undefined) ?? {}));
    await ensureOptions(this.ctx, this.http, this.source, this.target, s.kind, paths.records(this.o.dir, s.kind));
    const identity = backupKind(s.kind)?.identity;
    // The lines of one parent, for `trim` (a backup writes a parent's children together).
    let group: { parent: unknown; olds: unknown[] } | undefined;
    for await (const rec of lines(paths.records(this.o.dir, s.kind))) {
      // A record without an id of its own (a follower) is named by what identifies it: `<deal id>-<user id>`.
      const old = identity ? identity.map((f) => String(rec[f])).join('-') : rec.id;
      if (s.trim && s.parent) {
        const parent = rec[s.parent.key];
        if (!group || group.parent !== parent) {
          if (group) await this.trim(s, group.parent, group.olds);
          group = { parent, olds: [] };
        }
        group.olds.push(old);
      }
      const key = `${s.kind}:${String(old)}`;
      if (this.refused.has(key)) {
        counts.failed++;
        continue;
      }
      if (!this.idmap.has(s.kind, old)) {
        if (this.run.stopping) throw this.run.stoppedError(`${this.created} records created`);
        const ok = await this.createOne(s, op, accepted, rec, old, key);
        if (!ok) {
          counts.failed++;
          continue;
        }
      }
      counts.created++;
      const after = s.after;
      const afterKey = after ? `${key}:${after.name}` : '';
      if (after && !this.afterDone.has(afterKey)) {
        const body = after.body ? after.body(rec) : undefined;
        const id = this.idmap.get(s.kind, old);
        // Idempotent (an archive, a description set): a try cut off by a kill is simply sent again.
        if (body !== null) {
          const aop = await after.op();
          await callOperation(this.http, aop, await prepare(this.ctx, aop, { params: { id }, ...(body ? { body } : {}) }, { naming: 'keys' }));
          await this.run.append({ key: afterKey, status: 'done', op: 'update', record: id as string });
        }
        this.afterDone.add(afterKey);
      }
    }
    if (group) await this.trim(s, group.parent, group.olds);
  }

  /**
   * A parent's list made the backup's: what the target holds beyond the lines restored for it (the owner's
   * own follow, added by the service on create) is removed. Skipped when a line of it was refused.
   */
  private async trim(s: RestoreStep, parentOld: unknown, olds: unknown[]): Promise<void> {
    const key = `${s.kind}:${String(parentOld)}:trim`;
    const parentId = this.idmap.get(s.parent!.kind, parentOld);
    if (this.trimmed.has(key) || parentId === undefined || !s.trim) return;
    const keep = new Set(olds.map((o) => this.idmap.get(s.kind, o)).filter((x) => x !== undefined).map(String));
    if (keep.size < olds.length) return;
    const remove = await s.trim();
    const extra: Rec[] = [];
    for await (const r of readAll(readerOf(this.http), await s.settle.list(), { params: { id: parentId } })) {
      const rec = r as Rec;
      if (!keep.has(String(s.settle.idOf ? s.settle.idOf(rec, parentId) : rec.id))) extra.push(rec);
    }
    for (const rec of extra) {
      try {
        await callOperation(this.http, remove, await prepare(this.ctx, remove, { params: { id: parentId, follower_id: rec.user_id } }, { naming: 'keys' }));
      } catch (err) {
        // Gone already (an earlier run removed it before a kill): what the trim wants.
        if (!(err instanceof NotFoundError)) throw err;
      }
    }
    await this.run.append({ key, status: 'done', op: 'delete', ...(extra.length ? { removed: extra.map((r) => r.user_id) } : {}) });
    this.trimmed.add(key);
  }

  /** One record: body, settle of an earlier "sending", create, id map, journal. False when it failed. */
  private async createOne(s: RestoreStep, op: Operation, accepted: Set<string>, rec: Rec, old: unknown, key: string): Promise<boolean> {
    const parentId = s.parent ? this.idmap.get(s.parent.kind === 'deals' ? dealFileOf(this.idmap, rec[s.parent.key]) : s.parent.kind, rec[s.parent.key]) : undefined;
    if (s.parent && parentId === undefined) return this.fail(key, `its ${s.parent.key} ${String(rec[s.parent.key])} was not restored`);
    const p = toPortable(this.source, s.kind, rec, (k, id) => this.idmap.get(k, id));
    const built = fromPortable(this.target, this.users, s, p.rec, accepted);
    const dropped: string[] = [];
    if (s.kind === 'persons' && this.noContactSync) {
      const { SYNC_FIELDS } = await import('../api/operations/persons.js');
      for (const f of SYNC_FIELDS) {
        const k = f === 'ims' ? 'im' : f;
        if (built.body[k] === undefined) continue;
        delete built.body[k];
        dropped.push(`${f} (the target has no contact sync)`);
      }
    }
    const losses = { not_carried: [...dropped, ...built.dropped], unmapped: [...p.unmapped, ...built.unmapped].map((u) => u.split(' ')[0]!) };
    this.noteLosses(key, losses.not_carried, losses.unmapped);
    const params = s.parent ? { id: parentId } : {};
    let input: Prepared;
    try {
      input = await prepare(this.ctx, op, { params, body: built.body }, { naming: 'keys', container: key });
    } catch (err) {
      if (err instanceof CliError && err.exitCode === 2) return this.fail(key, err.message);
      throw err;
    }
    let upload: UploadFile | undefined;
    if (s.upload) {
      const bytes = paths.file(this.o.dir, String(old));
      if (!existsSync(bytes)) return this.fail(key, `its bytes are not in the backup (${bytes} is missing)`);
      const filename = String(rec.file_name ?? rec.name ?? `file-${String(old)}`);
      upload = { field: s.upload.field, path: bytes, filename, contentType: contentTypeOf(filename), size: statSync(bytes).size };
    }
    // What a look-up compares: the body, and an upload's name (the service names the file after its part).
    const sent = upload ? { ...(input.body as Rec), file_name: upload.filename } : (input.body as Rec);
    const taken = this.idmap.taken(s.kind);
    // A create a killed run left in "sending" (or, for kinds the service may already hold, every create):
    // looked up with the body it sent before it is sent again.
    const before = this.pending.get(key) ?? (s.lookFirst ? { sent, at: Date.now() } : undefined);
    if (before) {
      const found = await this.lookUp(s, before.sent, before.at, taken, parentId);
      if (found !== undefined) return this.landed(s, key, old, found, { reconciled: true });
      this.pending.delete(key);
    }
    const at = Date.now();
    await this.run.append({ key, op: 'create', status: 'sending', at: new Date(at).toISOString(), sent, ...(losses.not_carried.length ? { not_carried: losses.not_carried } : {}), ...(losses.unmapped.length ? { unmapped: losses.unmapped } : {}) });
    try {
      let settled: unknown;
      const { envelope } = await callOperation(this.http, op, input, {
        ...(upload ? { upload } : {}),
        reconcile: async () => {
          settled = await this.lookUp(s, sent, at, taken, parentId);
          return settled === undefined ? undefined : { status: 200, headers: {}, body: { success: true, data: {} } };
        },
      });
      if (settled !== undefined) return this.landed(s, key, old, settled, { reconciled: true });
      const got = recordsOf(op, envelope) as Rec | null;
      const id = got && (s.settle.idOf ? s.settle.idOf(got, parentId) : got.id);
      if (id === undefined || id === null) throw new CliError(`${op.method} ${op.path} answered without an id for ${key}`);
      return this.landed(s, key, old, id);
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      if (err instanceof DailyBudgetError) {
        this.run.requestStop();
        throw err;
      }
      // Passing failures (5xx after retries, 429, network) stop the run: --resume settles this one and goes on.
      if (isPassing(err)) throw err;
      // The target lacks contact sync (interface, Person): its five members go, the person is sent again without them.
      if (s.kind === 'persons' && !this.noContactSync && /only available when contact sync/.test(err.message)) {
        this.noContactSync = true;
        return this.createOne(s, op, accepted, rec, old, key);
      }
      return this.fail(key, err.message);
    }
  }

  private async landed(s: RestoreStep, key: string, old: unknown, id: unknown, extra: Rec = {}): Promise<boolean> {
    this.idmap.add(s.kind, old, id);
    await this.run.append({ key, status: 'done', id: id as string, ...extra });
    this.pending.delete(key);
    this.created++;
    this.progress.update(this.created, { extra: s.kind });
    return true;
  }

  /** A refusal (exit-2 kind: the entry's checks, a 4xx): final, reported, never sent again by --resume. */
  private async fail(key: string, error: string): Promise<boolean> {
    this.refused.set(key, error);
    await this.run.append({ key, status: 'failed', error, passing: false });
    return false;
  }

  /** The record a create made, by content, among records no id map line owns. */
  private async lookUp(s: RestoreStep, sent: Rec, at: number, taken: Set<string>, parentId: unknown): Promise<unknown> {
    const list = await s.settle.list();
    const rows = [{ line: 0, body: sent }];
    if (s.settle.updatedSince) {
      const cutoff = this.http.clockOffsetMs === undefined ? at - 5 * 60_000 : at + this.http.clockOffsetMs - 3_000;
      return (await findByContent(this.http, list, s.settle.descriptor, rows, cutoff, taken)).get(0)?.id;
    }
    const by = s.settle.byParent;
    const raw = !by ? {} : by === true ? { params: { id: parentId } } : { query: { [by.query]: [parentId] } };
    for await (const r of readAll(readerOf(this.http), list, raw)) {
      const rec = r as Rec;
      // Children answer in v1 forms: a participant's person is { value: id }.
      const flat = Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) && 'value' in (v as Rec) ? (v as Rec).value : v]));
      const id = s.settle.idOf ? s.settle.idOf(rec, parentId) : rec.id;
      if (!taken.has(String(id)) && matches(s.settle.descriptor, sent, flat)) return id;
    }
    return undefined;
  }

  /** A record's fields not carried and links that mapped to nothing, for the report (kept in its "sending" entry). */
  private noteLosses(key: string, fields: string[], unmapped: string[]): void {
    const kind = key.slice(0, key.indexOf(':'));
    const add = <T>(m: Map<string, Set<T>>, k: string, v: T) => {
      let set = m.get(k);
      if (!set) {
        set = new Set();
        m.set(k, set);
      }
      set.add(v);
    };
    for (const f of fields) add(this.notCarried, kind, f);
    for (const u of unmapped) add(this.unmappedLinks, `${kind} ${u}`, key);
  }

  report(m: Manifest, target: string): RestoreReport {
    const failed = [...this.refused].map(([key, error]) => {
      const i = key.indexOf(':');
      return { kind: key.slice(0, i), old: key.slice(i + 1), error };
    });
    return {
      backup: this.o.dir,
      target,
      kinds: this.counts,
      failed,
      users: { mapped: this.users.mappedPairs(), to_default: this.users.toDefault() },
      not_carried: {
        fields: Object.fromEntries([...this.notCarried].map(([k, s]) => [k, [...s].sort()])),
        links: Object.fromEntries([...this.unmappedLinks].map(([k, keys]) => [k, keys.size])),
        kinds: Object.fromEntries(Object.entries(NOT_RESTORED).filter(([k]) => (m.kinds[k]?.count ?? 0) > 0)),
        never: NEVER_CARRIED,
      },
    };
  }
}

/** A child's deal may be a plain or an archived one: the id map of whichever holds it. */
function dealFileOf(idmap: IdMap, old: unknown): string {
  return idmap.has('deals', old) ? 'deals' : 'deals-archived';
}

/** What a run that finished left: its report, for `already done`. */
export function reportPath(dir: string, key: string): string {
  return join(paths.restore(dir, key), 'report.json');
}
