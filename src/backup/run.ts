/**
 * `crmctl backup --out DIR`: the whole account into a directory (docs/migrations.md ("What backup writes")), on the run
 * engine (src/runs): one journal in DIR/.run tied to the account, the policy of every run (--resume,
 * --new-run, "already done"), Ctrl-C and a spent budget stop it with its state kept.
 *
 * The steps, each journaled once its writes are fsynced:
 *   clock    the service's time (users/me's Date header) and the account's name
 *   config   `crmctl pull` into DIR/config, the field catalogs into DIR/fields, the ids of the
 *            configuration and the users into records/<reference kind>.ndjson
 *   pages    one entry per page of a list (src/backup/read-plan.ts) with its children: the next
 *            cursor and the length of every file it wrote, so a resumed run cuts each file back to
 *            its last entry and reads the next page (no record twice, none missing)
 *   file:<id>  one entry per downloaded file (a resumed page does not download it again)
 * clock, config and the deals' count write no records file, so they run beside the pages (their entries
 * may come after page entries); the first page of every list (the survey, which prices the rest before
 * it starts) is read a few lists at a time, each list's pages in order. The configuration's reads and
 * files start once the cost is printed (counted in it at what they cost at least) and go on beside the
 * pages. After the survey a list's next page is asked for while this one is written (src/core/read-ahead.ts),
 * and a page's syncs and entry go on while the next one is written (commit).
 * Then the manifest, written last and atomically: its presence means the backup is complete.
 *
 * Memory stays flat: at most two pages (and one's children) are held, a few during the survey; files stream to disk.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { callOperation, nextPage, pageQuery, paginate, recordsOf } from '../api/call.js';
import type { Operation } from '../api/operation.js';
import { checkReader, prepare, read, readerOf } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { markResumable, UsageError } from '../core/errors.js';
import { gated, settledInOrder } from '../core/bounded.js';
import type { HttpPort } from '../core/http-port.js';
import { ReadAhead } from '../core/read-ahead.js';
import { VERSION } from '../core/version.js';
import { syncDir, writeFilesAtomic, writeJsonAtomic } from '../fs/atomic-write.js';
import { budgetNotice } from '../automation/budget-notice.js';
import { Progress } from '../automation/progress.js';
import { FileSink } from '../automation/sink.js';
import { accountOf } from '../runs/account.js';
import { canonical, hashOf } from '../runs/fingerprint.js';
import { openRun, type ItemEntry, type Run } from '../runs/run.js';
import { paths, FORMAT, readManifest, type Manifest } from './format.js';
import { downloadTo } from './download.js';
import { filesOnDisk, manifestKinds, RunningHash } from './manifest.js';
import { fileGroups, LIST_PASSES, passKinds, SKIPPABLE, type ChildRead, type ListPass } from './read-plan.js';
import { estimate, type PassState } from './estimate.js';

type Rec = Record<string, unknown>;
type Gate = ReturnType<typeof gated>;
interface Page { records: Rec[]; after: string | number | undefined }

export interface BackupOptions {
  out: string;
  resume: boolean;
  newRun: boolean;
  /** Kinds left out (a list's children go with it). */
  skip: string[];
  /** Download each file's bytes into files/<id> (20 a file, v1). */
  fileBytes: boolean;
  /** Read followers of every record that has any and discounts of every deal (one read each). */
  thorough: boolean;
  /** A backup made for one comparison (diff): its journal and run record go when it finishes. */
  ephemeral?: boolean;
  /** The configuration step: `pull`'s reads, then its files in a directory (handed in by the command, which sits above this room). */
  pull: ConfigPull;
}

/**
 * What the backup keeps of a pull's reads: the records (reference kinds become records files), the users,
 * the cost; `write` makes pull's files into the directory (beside the pages, as soon as the reads end).
 */
export interface PulledConfig {
  records: Array<{ ck: { kind: string }; rec: Record<string, unknown> }>;
  users: unknown[];
  cost: number;
  write(): Promise<unknown>;
}
export interface ConfigPull {
  /** Pull's reads; `write` makes its files into `dir`. */
  read(ctx: Context, dir: string): Promise<PulledConfig>;
  /** What those reads cost at least, known before any answer (the run's cost is printed while they go on). */
  costAtLeast(): Promise<number>;
}

/** One page of a list written: the next cursor (null: the list is done) and every file's length. */
interface PageEntry extends ItemEntry {
  pass: string;
  next: string | number | null;
  /** Records of the pass so far. */
  records: number;
  files: Record<string, number>;
  cost: number;
}

const ITEM_TYPES = ['deal', 'person', 'organization', 'product', 'activity', 'project'] as const;
/** What one item type's field catalog read costs (the v2 field list). */
const CATALOG_COST = 10;
/** Reference kinds written from what pull read: config kind → records file. */
const REFERENCE: Record<string, string> = { pipeline: 'pipelines', stage: 'stages', 'lead-label': 'lead-labels', 'activity-type': 'activity-types', board: 'boards', phase: 'phases' };
/** What a backup writes into its directory (and --new-run clears): nothing else there is touched. */
const OWN_PARTS = ['manifest.json', 'config', 'fields', 'records', 'files'];
/** A page's child reads and downloads in flight at once. */
const CHILD_READS_IN_FLIGHT = 4;
/** First pages read at once by the survey: enough to keep the service and this process both busy, no more (pages held at once). */
const SURVEY_IN_FLIGHT = 4;

export async function runBackup(ctx: Context, o: BackupOptions): Promise<Manifest> {
  const skip = checkSkip(o.skip);
  const passes = LIST_PASSES.filter((p) => !skip.has(p.kind));
  prepareDir(o);

  const options = { skip: [...skip].sort(), file_bytes: o.fileBytes, thorough: o.thorough };
  const opened = await openRun(ctx, {
    kind: 'backup',
    journal: paths.journal(o.out),
    input: { fingerprint: hashOf(canonical({ format: FORMAT, ...options })), describe: `backup to ${o.out}${describeOptions(options)}` },
    resume: o.resume,
    newRun: o.newRun,
    header: { dir: o.out, options },
    ephemeral: o.ephemeral,
  });
  if (opened.state === 'done') return readManifest(o.out);
  const run = opened.run;
  if (opened.state === 'new') clearOwnParts(o.out);
  const entries = opened.state === 'resume' ? opened.entries : [];

  const http = await ctx.http();
  const b = new Backup(ctx, http, run, o, entries);
  run.watchSignals('page');
  try {
    await run.begin();
    // The service's clock, the configuration and the deals' count write no records file: they are read
    // beside the pages (the configuration's ~50 small reads never wait in front of them, nor they in front of the pages).
    b.aside(b.clock());
    const configToRead = !b.done.has('config');
    // The survey: the deals' count and the first page of every list (the backup's own pages, not
    // read twice) price the rest before it starts; the configuration at what it costs at least.
    const count = passes.some((p) => p.kind === 'deals' && !b.state(p).done) ? b.aside(b.dealCount()) : Promise.resolve(undefined);
    await b.survey(passes, skip);
    // The estimate counts what the journal counted: the survey's pages are in it first.
    await b.committed();
    const records = estimate(passes.map((p) => ({ pass: p, state: b.state(p) })), { deals: await count });
    const e = configToRead ? { tokens: records.tokens + (await b.configAtLeast()), atLeast: true } : records;
    if (e.tokens > 0) budgetNotice(ctx, http, e);
    // The configuration is read after the survey, beside the pages: its reads and files would hold the
    // survey's first pages (and the printed cost) back, where beside the pages they fill the waits for the service.
    if (configToRead) b.aside(b.readConfig().then((pulled) => pulled.write()));
    for (const p of passes) while (!b.state(p).done) await b.step(p, skip, true);
    await b.committed();
    await b.asideDone();
    b.closeSinks();
    const manifest = await b.manifest(options);
    writeJsonAtomic(paths.manifest(o.out), manifest);
    const total = Object.entries(manifest.kinds).filter(([, k]) => !k.reference).reduce((n, [, k]) => n + k.count, 0);
    await run.finish(`${total} records in ${Object.keys(manifest.kinds).length} files, ${manifest.files.count} files' bytes`, { records: total, files: manifest.files.count });
    b.progress.done(b.written);
    return manifest;
  } catch (err) {
    // Nothing read beside the pages is still writing when the run pauses or closes; pages written and
    // synced are journaled (a resumed run does not read them again).
    await b.committed().catch(() => {});
    await b.asideDone().catch(() => {});
    b.closeSinks();
    if (!run.resumable) throw err;
    await run.pause(`${b.written} records written`);
    throw markResumable(err);
  } finally {
    await run.close();
  }
}

function checkSkip(names: string[]): Set<string> {
  const out = new Set<string>();
  for (const n of names) {
    if (!SKIPPABLE.includes(n)) throw new UsageError(`--skip ${n}: not a kind a backup reads`, `Kinds: ${SKIPPABLE.join(', ')}.`);
    out.add(n);
    // Skipping a list skips its children: they are read per page of it.
    const pass = LIST_PASSES.find((p) => p.kind === n);
    if (pass) for (const k of passKinds(pass)) out.add(k);
  }
  return out;
}

function describeOptions(o: { skip: string[]; file_bytes: boolean; thorough: boolean }): string {
  return `${o.skip.length ? ` --skip ${o.skip.join(',')}` : ''}${o.file_bytes ? '' : ' --no-file-bytes'}${o.thorough ? ' --thorough' : ''}`;
}

/** DIR is new, empty, or a backup of crmctl's (its journal or manifest): never somebody else's folder. */
function prepareDir(o: BackupOptions): void {
  if (existsSync(o.out)) {
    if (!statSync(o.out).isDirectory()) throw new UsageError(`--out ${o.out}: is a file; give a directory (created if missing)`);
    const foreign = readdirSync(o.out).filter((f) => !OWN_PARTS.includes(f) && f !== '.run' && f !== 'restore');
    const ours = existsSync(paths.journal(o.out)) || existsSync(paths.manifest(o.out));
    if (foreign.length && !ours) throw new UsageError(`--out ${o.out}: holds other files (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}); a backup goes into a new or empty directory`);
    if (!existsSync(paths.journal(o.out)) && existsSync(paths.manifest(o.out)) && !o.newRun) {
      throw new UsageError(`--out ${o.out}: holds a finished backup whose journal is gone`, 'Write the new backup elsewhere, or --new-run to replace it.');
    }
  }
  mkdirSync(paths.run(o.out), { recursive: true, mode: 0o700 });
}

function clearOwnParts(dir: string): void {
  for (const part of OWN_PARTS) rmSync(`${dir}/${part}`, { recursive: true, force: true });
}

const list = (v: unknown): Rec[] => (Array.isArray(v) ? (v as Rec[]) : v == null ? [] : [v as Rec]);
const encode = (rows: Rec[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

class Backup {
  readonly done = new Set<string>();
  private readonly passes = new Map<string, PassState>();
  /** Each records file's length at its last journal entry. */
  private readonly lengths = new Map<string, number>();
  private readonly sinks = new Map<string, FileSink>();
  /** Lines and sha256 of the records files this run wrote whole (manifest.ts reads the others). */
  private readonly hashes = new Map<string, RunningHash>();
  private readonly downloaded = new Map<string, { sha256: string; bytes: number }>();
  private startedAt: string | undefined;
  private companyName: string | null = null;
  private spent = 0;
  private readonly besides: Array<Promise<unknown>> = [];
  /** The next page of the list being read, asked for before its turn (step's readAhead). */
  private readonly ahead = new ReadAhead<Page>();
  private failed: { error: unknown } | undefined;
  /** The pages' syncs and entries, in the order the pages were written (commit). */
  private commits: Promise<void> = Promise.resolve();
  written = 0;
  readonly progress: Progress;

  constructor(private readonly ctx: Context, private readonly http: HttpPort, private readonly run: Run, private readonly o: BackupOptions, entries: ItemEntry[]) {
    this.progress = new Progress(ctx, 'backup');
    for (const e of entries) {
      this.spent += Number(e.cost ?? 0) || 0;
      if (e.key === 'clock') {
        this.startedAt = String(e.started_at);
        this.companyName = (e.company_name as string | null) ?? null;
      } else if (e.key === 'config') this.done.add('config');
      else if (e.key.startsWith('file:')) this.downloaded.set(e.key.slice(5), { sha256: String(e.sha256), bytes: Number(e.bytes) });
      else if (typeof e.pass === 'string') {
        const p = e as PageEntry;
        const page = Number(p.key.slice(p.pass.length + 1));
        const before = this.passes.get(p.pass);
        this.passes.set(p.pass, {
          page: page + 1, next: p.next ?? undefined, done: p.next === null, records: p.records, cost: (before?.cost ?? 0) + p.cost,
          firstPage: page === 0 ? { records: p.records, cost: p.cost } : before?.firstPage,
        });
        for (const [kind, bytes] of Object.entries(p.files)) this.lengths.set(kind, bytes);
      }
    }
    this.written = [...this.passes.values()].reduce((n, s) => n + s.records, 0);
    // Journaled files are cut back to their last entry now: a page may write to a kind only when it has lines of it.
    for (const kind of this.lengths.keys()) this.sink(kind);
  }

  state(p: ListPass): PassState {
    let s = this.passes.get(p.kind);
    if (!s) {
      s = { page: 0, next: undefined, done: false, records: 0, cost: 0 };
      this.passes.set(p.kind, s);
    }
    return s;
  }

  /**
   * Work that runs beside the record pages (it writes no records file): its failure stops the next page,
   * and asideDone waits for all of it.
   */
  aside<T>(work: Promise<T>): Promise<T> {
    this.besides.push(work);
    work.catch((error: unknown) => {
      this.failed ??= { error };
    });
    return work;
  }

  /** Every piece of work beside the pages has ended; the first failure in the order they started is thrown. */
  async asideDone(): Promise<void> {
    await settledInOrder(this.besides);
  }

  /**
   * The first page of every list not begun, a few lists at a time: each list writes files of its own
   * (deals and archived deals, which share their children's files, in turn), and each page is journaled
   * on its own as ever, so a resumed run finds every list where its own entries left it.
   */
  async survey(passes: readonly ListPass[], skip: Set<string>): Promise<void> {
    const gate = gated(SURVEY_IN_FLIGHT);
    const groups = fileGroups(passes.filter((p) => this.state(p).page === 0));
    await settledInOrder(groups.map((g) => gate(async () => {
      for (const p of g) await this.step(p, skip);
    })));
  }

  /** The service's time at the start, from the first answer's Date header; the account's name. */
  async clock(): Promise<void> {
    if (this.startedAt) return;
    const { userOps } = await import('../api/operations/users.js');
    const me = ((await read(this.ctx, userOps.me)) ?? {}) as Rec;
    this.startedAt = new Date(this.http.serviceNow()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    this.companyName = typeof me.company_name === 'string' ? me.company_name : null;
    await this.append({ key: 'clock', status: 'done', op: 'read', started_at: this.startedAt, company_name: this.companyName, cost: userOps.me.cost ?? 0 });
  }

  /** What the configuration's reads cost at least, known before any answer: pull's reads, one page of each field catalog. */
  async configAtLeast(): Promise<number> {
    return (await this.o.pull.costAtLeast()) + ITEM_TYPES.length * CATALOG_COST;
  }

  /**
   * The configuration's reads: pull's and the field catalogs, beside the pages (configAtLeast prices
   * them before they start); `write` makes pull's files, the field catalogs and the ids of configuration and
   * users, then journals the step with what the reads cost.
   */
  async readConfig(): Promise<{ cost: number; write: () => Promise<void> }> {
    const { fieldCatalog } = await import('../names/catalog.js');
    // The field catalogs are read while pull reads (independent small reads, each paced by the client's
    // governor); read fresh, not the per-profile cache: the catalog is the one of the backup's moment.
    const [pulled, catalogs] = await settledInOrder([
      this.o.pull.read(this.ctx, paths.config(this.o.out)),
      settledInOrder(ITEM_TYPES.map((t) => fieldCatalog(checkReader(this.ctx), t, readerOf(this.http)))),
    ] as const);
    const cost = pulled.cost + ITEM_TYPES.length * CATALOG_COST;
    return { cost, write: () => this.writeConfig(pulled, catalogs, cost) };
  }

  private async writeConfig(pulled: PulledConfig, catalogs: ReadonlyArray<{ fields: ReadonlyArray<{ key: string; name: string; type: string; custom?: boolean; options: unknown }> }>, cost: number): Promise<void> {
    // Pull's files, and the field catalogs with the reference records in one batch: their disk syncs side by side.
    const files: Array<{ path: string; text: string; mode?: number }> = ITEM_TYPES.map((t, i) => ({
      path: paths.fields(this.o.out, t),
      text: `${JSON.stringify(catalogs[i]!.fields.map((f) => ({ key: f.key, name: f.name, field_type: f.type, custom: f.custom, options: f.options })), null, 2)}\n`,
    }));
    const byKind = new Map<string, Rec[]>(Object.values(REFERENCE).map((k) => [k, []]));
    for (const r of pulled.records) {
      const file = REFERENCE[r.ck.kind];
      if (file) byKind.get(file)!.push(r.rec);
    }
    byKind.set('users', pulled.users as Rec[]);
    for (const [kind, rows] of byKind) {
      const unique = [...new Map(rows.map((r) => [String(r.id), r])).values()].sort((a, b) => Number(a.id) - Number(b.id) || String(a.id).localeCompare(String(b.id)));
      const text = encode(unique);
      files.push({ path: paths.records(this.o.out, kind), text, mode: 0o644 });
      // Counted and hashed as written, not read again for the manifest.
      const h = new RunningHash();
      h.add(text, unique.length);
      this.hashes.set(kind, h);
    }
    await settledInOrder([pulled.write(), writeFilesAtomic(files)]);
    await this.append({ key: 'config', status: 'done', op: 'read', cost });
    this.done.add('config');
  }

  /** The number of open, won and lost deals (archived ones are not counted): v1, the only count the service gives. */
  async dealCount(): Promise<number | undefined> {
    const { dealOps } = await import('../api/operations/deals.js');
    const s = (await read(this.ctx, dealOps.summary)) as Rec | null;
    this.spent += dealOps.summary.cost ?? 0;
    const n = Number(s?.total_count);
    return Number.isFinite(n) ? n : undefined;
  }

  /** One page of a list: its records and the next page's cursor or offset (undefined: the list is done). */
  private async page(p: ListPass, op: Operation, next: string | number | undefined): Promise<Page> {
    const query = pageQuery(op, p.query ?? {}, op.maxLimit ?? 500, next);
    const { envelope } = await callOperation(this.http, op, await prepare(this.ctx, op, { query }));
    const records = list(recordsOf(op, envelope));
    return { records, after: op.pagination === 'none' || records.length === 0 ? undefined : nextPage(op, envelope) };
  }

  /**
   * One page of a list and its children: written, then fsynced and journaled by `commit` while the next
   * page goes on. With `readAhead`, the list's next page is asked for as soon as this one's answer is in
   * (the pages after the survey: the survey already keeps a few lists' reads going at once).
   */
  async step(p: ListPass, skip: Set<string>, readAhead = false): Promise<void> {
    if (this.run.stopping) throw this.run.stoppedError(`${this.written} records written to ${this.o.out}`);
    if (this.failed) throw this.failed.error;
    const st = this.state(p);
    const op = await p.op();
    const { records, after } = await this.ahead.take(`${p.kind}:${String(st.next)}`, () => this.page(p, op, st.next));
    // The next page is asked for now, while this one's children, lines and syncs go on (src/core/read-ahead.ts).
    if (readAhead && after !== undefined) await this.ahead.ask(`${p.kind}:${String(after)}`, () => this.page(p, op, after));
    let cost = op.cost ?? 0;
    const lines = new Map<string, Rec[]>([[p.kind, records]]);
    // The page's child reads and downloads go a few at a time through the one client (each still paced by its
    // cost governor); every kind's lines keep the order of the page's records whatever order answers come in.
    const gate = gated(CHILD_READS_IN_FLIGHT);
    const kids = (p.children ?? []).filter((c) => !skip.has(c.kind));
    const [got, downloads] = await settledInOrder([
      settledInOrder(kids.map((c) => this.children(c, records, gate))),
      p.bytes && this.o.fileBytes ? this.bytes(records, gate) : Promise.resolve(0),
    ] as const);
    kids.forEach((c, i) => {
      lines.set(c.kind, got[i]!.rows);
      cost += got[i]!.cost;
    });
    cost += downloads;
    // Every file the page touched is on disk before the entry that names its length. A child list the page
    // left empty (most deals have no discounts or followers) is neither written nor synced: one fsync less each.
    const touched = [...lines].filter(([, rows]) => rows.length);
    await settledInOrder(touched.map(([kind, rows]) => {
      // The sink first: a file's first write opens it and starts its running hash.
      const sink = this.sink(kind);
      // Encoded to bytes once, for the hash and the file, in the sink's own buffer (written before the next page).
      const bytes = sink.encode(encode(rows));
      this.hashes.get(kind)?.add(bytes, rows.length);
      return sink.writeAside(bytes);
    }));
    const files = Object.fromEntries([...lines.keys()].filter((k) => this.sinks.has(k) || this.lengths.has(k)).map((k) => [k, this.sinks.get(k)?.bytes ?? this.lengths.get(k)!]));
    st.records += records.length;
    const entry = { key: `${p.kind}:${st.page}`, status: 'done' as const, op: 'read', pass: p.kind, next: after ?? null, records: st.records, files, cost } satisfies PageEntry;
    // The page's syncs and entry go on while the next page is read and written: the entry, written once its
    // files are synced (on the thread pool, side by side), names their lengths as of this page, and a
    // resumed run cuts later bytes off. Entries land in the order pages were written (deals and archived
    // deals share files: the last entry of a file is its longest).
    this.commit(touched.map(([kind]) => kind), entry);
    if (st.page === 0) st.firstPage = { records: records.length, cost };
    st.page++;
    st.cost += cost;
    st.next = after;
    st.done = after === undefined;
    this.written += records.length;
    this.progress.update(this.written, { extra: p.kind });
  }

  /** After the pages committed before: the kinds' files synced, then the entry journaled. */
  private commit(kinds: string[], entry: PageEntry & { status: 'done' }): void {
    const sinks = kinds.map((k) => this.sink(k));
    this.commits = this.commits.then(async () => {
      await settledInOrder(sinks.map((s) => s.syncAside()));
      await this.append(entry);
    });
    // A failed commit fails every later one; the next step, or committed(), throws it.
    this.commits.catch((error: unknown) => {
      this.failed ??= { error };
    });
  }

  /** Every page written so far is synced and journaled (its failure thrown). */
  committed(): Promise<void> {
    return this.commits;
  }

  /** The children of a page's records (see read-plan.ts for which records have any), in the records' order. */
  private async children(c: ChildRead, parents: Rec[], gate: Gate): Promise<{ rows: Rec[]; cost: number }> {
    const ids = parents.filter((r) => c.when(r, this.o.thorough)).map((r) => r.id);
    const op = await c.op();
    let cost = 0;
    // One read (and its further pages) per record, or per batch of ids in a query; each the parent id first.
    const by = c.by;
    const reads = 'param' in by
      ? ids.map((id) => ({ raw: { params: { [by.param]: id } }, parent: () => id }))
      : Array.from({ length: Math.ceil(ids.length / by.batch) }, (_, i) => ({ raw: { query: { [by.query]: ids.slice(i * by.batch, (i + 1) * by.batch) } }, parent: (x: Rec) => x[c.parentKey] }));
    const parts = await settledInOrder(reads.map((r) => gate(async () => {
      const rows: Rec[] = [];
      const input = await prepare(this.ctx, op, r.raw);
      for await (const x of paginate(this.http, op, input, { all: true, onPage: () => {
        cost += op.cost ?? 0;
      } })) rows.push({ [c.parentKey]: r.parent(x as Rec), ...(x as Rec) });
      return rows;
    })));
    return { rows: parts.flat(), cost };
  }

  /** Each file's bytes into files/<id>; the record gets their hash (null for a link to a remote file). */
  private async bytes(records: Rec[], gate: Gate): Promise<number> {
    const { fileOps } = await import('../api/operations/files.js');
    mkdirSync(paths.files(this.o.out), { recursive: true });
    let cost = 0;
    await settledInOrder(records.map(async (r) => {
      const id = String(r.id);
      // Files kept elsewhere (Google Drive, a link) have no bytes the service serves.
      if (r.remote_location && r.remote_location !== 's3') {
        r.bytes_sha256 = null;
        return;
      }
      const target = paths.file(this.o.out, id);
      const known = this.downloaded.get(id);
      if (known && existsSync(target) && statSync(target).size === known.bytes) {
        r.bytes_sha256 = known.sha256;
        return;
      }
      const got = await gate(async () => downloadTo(this.http, fileOps.download, await prepare(this.ctx, fileOps.download, { params: { id } }), target));
      cost += fileOps.download.cost ?? 0;
      this.downloaded.set(id, got);
      await this.append({ key: `file:${id}`, status: 'done', op: 'read', sha256: got.sha256, bytes: got.bytes, cost: fileOps.download.cost ?? 0 });
      r.bytes_sha256 = got.sha256;
    }));
    return cost;
  }

  private sink(kind: string): FileSink {
    let s = this.sinks.get(kind);
    if (!s) {
      mkdirSync(paths.recordsDir(this.o.out), { recursive: true });
      // A file with an entry is cut back to it (bytes after it were never journaled); one without starts empty.
      const at = this.lengths.get(kind);
      s = new FileSink(paths.records(this.o.out, kind), at);
      this.sinks.set(kind, s);
      // A file this run writes from its first byte is counted and hashed as it is written, not read again for the manifest.
      if (at === undefined) this.hashes.set(kind, new RunningHash());
    }
    return s;
  }

  closeSinks(): void {
    for (const s of this.sinks.values()) s.close();
    this.sinks.clear();
  }

  private async append(e: Rec & { key: string; status: 'done'; cost?: number }): Promise<void> {
    this.spent += Number(e.cost ?? 0);
    await this.run.append(e);
  }

  async manifest(options: Manifest['options']): Promise<Manifest> {
    // Every kind of the lists read has its file, empty when the account holds none (nothing to write half:
    // created, then the folder synced once for all of them), counted and hashed as written.
    const empty = LIST_PASSES.flatMap(passKinds).filter((k) => !options.skip.includes(k) && !existsSync(paths.records(this.o.out, k)));
    if (empty.length) {
      mkdirSync(paths.recordsDir(this.o.out), { recursive: true });
      for (const k of empty) {
        closeSync(openSync(paths.records(this.o.out, k), 'w', 0o644));
        this.hashes.set(k, new RunningHash());
      }
      syncDir(paths.recordsDir(this.o.out));
    }
    const account = await accountOf(this.ctx);
    const onDisk = filesOnDisk(this.o.out);
    const kinds = await manifestKinds(this.o.out, new Map([...this.hashes].map(([k, h]) => [k, h.result()])));
    return {
      format: FORMAT,
      crmctl_version: VERSION,
      account: { api_origin: account.origin, company_id: account.company_id, user_id: account.user_id, company_name: this.companyName },
      started_at: this.startedAt ?? new Date(this.http.serviceNow()).toISOString(),
      finished_at: new Date(this.http.serviceNow()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      kinds,
      files: { ...onDisk, skipped: options.file_bytes ? 0 : (kinds.files?.count ?? 0) },
      options,
      cost: { spent: this.spent },
    };
  }
}

