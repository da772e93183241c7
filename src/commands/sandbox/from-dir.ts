import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkConfigFiles } from '../../apply-engine/config/session.js';
import { readFixtures } from '../../apply-engine/parse.js';
import { makePlan } from '../../apply-engine/plan.js';
import { emptyState } from '../../apply-engine/state.js';
import type { Context } from '../../core/context.js';
import { CliError, PartialFailureError, UsageError, ValidationError } from '../../core/errors.js';
import { paths, readManifest } from '../../backup/format.js';
import { SAMPLE_KINDS, type SampleKind } from '../pull/sample-policy.js';
import { remapColumn } from './remap-column.js';
import { CONTACT_SYNC_FIELDS, sandboxContext, type FromDir, type LoadOptions, type Loaded } from './from-dir-types.js';

export type { FromDir, LoadOptions, Loaded } from './from-dir-types.js';

const STOPPED = 'The sandbox was stopped; fix the file and start it again.';
const CONFIG_EXT = /\.(ya?ml|json)$/i;
/** Read-only settings a pull lists for reference: never applied. */
const REFERENCE_FILE = 'reference.yaml';

/**
 * Reads and checks the directory: every configuration file parsed and planned (references, env,
 * specs), so a bad file is exit 2 naming file and line before anything starts.
 */
export function readFromDir(dir: string, env: NodeJS.ProcessEnv): FromDir {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (err) {
    throw new UsageError(`--from ${dir}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (!isDir) throw new UsageError(`--from ${dir}: must be a directory (as crmctl pull --out writes)`);
  if (existsSync(paths.manifest(dir)) || existsSync(paths.journal(dir))) {
    // A backup (or an unfinished one: readManifest names --resume). Its configuration is checked now, as a
    // pull directory's is: a bad file is exit 2 before anything starts.
    const backup = readManifest(dir, '--from');
    const config = readFromDir(paths.config(dir), env);
    return { dir, files: [], samples: [], config: true, kinds: config.kinds, backup };
  }
  const files = readdirSync(dir).filter((f) => CONFIG_EXT.test(f) && !f.startsWith('.') && f !== REFERENCE_FILE).sort().map((f) => join(dir, f));
  const samples = SAMPLE_KINDS.map((kind) => ({ kind, file: join(dir, 'sample', `${kind}.csv`) })).filter((s) => existsSync(s.file));
  if (!files.length && !samples.length) throw new UsageError(`--from ${dir}: holds no configuration files (.yaml, .yml, .json) and no sample/*.csv`);
  const { records, issues } = readFixtures(files);
  const config = records.some((r) => r.config);
  // Fixtures are planned against nothing only for their checks (a new sandbox holds none of their records);
  // configuration is checked by apply itself against the new sandbox (its references name what the seed holds),
  // except what needs no account: the same files plan and apply refuse are refused before the sandbox starts.
  if (config) checkConfigFiles(records, issues, env);
  else makePlan(records, emptyState(), { env, prune: false, issues });
  const kinds: Record<string, number> = {};
  for (const r of records) kinds[r.kind.kind] = (kinds[r.kind.kind] ?? 0) + 1;
  return { dir, files, samples, config, kinds };
}

/**
 * Applies the configuration as `crmctl apply -f` does (runApply), then imports the sample files (organizations,
 * persons, deals, activities: each links by name to what came before) through the import machinery,
 * as the sandbox's admin. Journals, state and results go to a temporary directory, removed after.
 * A refusal is exit 2 naming the file and line.
 */
export async function loadFromDir(ctx: Context, sandbox: { url: string; issueToken(): { access_token: string } }, from: FromDir, o: LoadOptions = { anonymize: false }): Promise<Loaded> {
  if (from.backup) return (await import('./from-backup.js')).loadBackup(ctx, sandbox, from, from.backup, o);
  const work = mkdtempSync(join(tmpdir(), 'crmctl-from-'));
  const child = await sandboxContext(ctx, sandbox);
  const loaded: Loaded = { records: {}, sample: {} };
  try {
    if (from.files.length) {
      // The very code `crmctl apply -f` runs (files checked, planned, sent in order), into a state
      // file of its own: what it created is counted from there.
      const [{ runApply }, { readState }] = await Promise.all([import('../apply/run.js'), import('../../apply-engine/state.js')]);
      const statePath = join(work, 'state.json');
      // A real account's users are not the sandbox's: records naming them get its admin, said once.
      const unknownUsers = {
        onMapped: (emails: string[], to: { email: string }) => ctx.warn(`${emails.length} user${emails.length === 1 ? '' : 's'} of the files ${emails.length === 1 ? 'is' : 'are'} not in the sandbox; their records use its admin ${to.email}: ${emails.join(', ')}`),
      };
      await runApply(child, { files: from.files, state: from.config ? undefined : statePath, dryRun: false, prune: false, unknownUsers }).catch((err: unknown) => {
        throw asFileError(err);
      });
      if (from.config) Object.assign(loaded.records, from.kinds);
      else for (const entry of Object.values(readState(statePath).records)) loaded.records[entry.kind] = (loaded.records[entry.kind] ?? 0) + 1;
    }
    const dealIds = new Map<string, string>();
    const persons = from.samples.find((s) => s.kind === 'persons');
    if (persons && o.enableContactSync && (await usesContactSync(persons.file))) o.enableContactSync();
    for (const { kind, file } of from.samples) {
      let input = file;
      let lineOf = (line: number) => line;
      // An activity's deal is given by id (deals have no name to link by): ids of the deals just loaded.
      if (kind === 'activities' && dealIds.size) {
        input = join(work, 'activities.csv');
        const lines = await remapColumn(file, input, 'deal_id', dealIds);
        lineOf = (line) => lines.get(line) ?? line;
      }
      const ids = await importSample(child, kind, file, input, join(work, kind), lineOf);
      loaded.sample[kind] = ids.size;
      if (kind === 'deals') for (const [old, id] of await sourceIds(file, ids)) dealIds.set(old, id);
    }
  } finally {
    await child.close();
    rmSync(work, { recursive: true, force: true });
  }
  return loaded;
}

/** Imports one sample file; returns line → new id. Problems come back as `<file>:<line>`. */
async function importSample(ctx: Context, kind: SampleKind, file: string, input: string, work: string, lineOf: (line: number) => number): Promise<Map<number, string>> {
  const [{ findImportResource }, { runImport }] = await Promise.all([import('../../automation/resources.js'), import('../../automation/import.js')]);
  const resultsPath = `${work}.results.ndjson`;
  try {
    await runImport(ctx, {
      resource: findImportResource(kind)!, file: input, format: 'csv', skipInvalid: false, concurrency: 4,
      statePath: `${work}.import-state.json`, resultsPath, resume: false, dryRun: false,
    });
  } catch (err) {
    if (err instanceof ValidationError) {
      throw new ValidationError(err.issues.map((i) => {
        const m = /^line (\d+): (.*)$/.exec(i.field);
        return { field: m ? `${file}:${lineOf(Number(m[1]))} ${m[2]}` : `${file}:1 ${i.field === '--file' ? 'header' : i.field}`, rule: i.rule };
      }), STOPPED);
    }
    if (err instanceof PartialFailureError) {
      const failed = results(resultsPath).filter((r) => r.error !== undefined);
      throw new ValidationError(failed.map((r) => ({ field: `${file}:${lineOf(r.line)}`, rule: `refused by the sandbox: ${r.error}` })), STOPPED);
    }
    throw err;
  }
  return new Map(results(resultsPath).flatMap((r) => (r.id === undefined || r.id === null ? [] : [[r.line, String(r.id)] as [number, string]])));
}

function results(path: string): Array<{ line: number; id?: unknown; error?: string }> {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { line: number; id?: unknown; error?: string });
}

/** Did the sample's source company have contact sync? Its persons' members that need it hold values then. */
async function usesContactSync(file: string): Promise<boolean> {
  const { readRows } = await import('../../automation/rows.js');
  let at: number[] = [];
  for await (const row of readRows(file, 'csv', (h) => (at = h.flatMap((c, i) => (CONTACT_SYNC_FIELDS.includes(c) ? [i] : []))))) {
    if (row.kind === 'csv' && at.some((i) => (row.cells[i] ?? '') !== '')) return true;
  }
  return false;
}

/** The file's `id` column (the source account's ids) paired with the ids the rows got here. */
async function sourceIds(file: string, created: Map<number, string>): Promise<Map<string, string>> {
  const { readRows } = await import('../../automation/rows.js');
  let idAt = -1;
  const out = new Map<string, string>();
  for await (const row of readRows(file, 'csv', (h) => (idAt = h.indexOf('id')))) {
    if (row.kind !== 'csv' || idAt < 0) continue;
    const old = row.cells[idAt];
    const id = created.get(row.line);
    if (old && id !== undefined) out.set(old, id);
  }
  return out;
}

/**
 * The engine's message already names file and line (a refusal by the sandbox, 400, keeps exit 2);
 * its hint points at a state file this command removes, so it is replaced.
 */
function asFileError(err: unknown): unknown {
  if (err instanceof ValidationError) return new ValidationError(err.issues, STOPPED);
  if (err instanceof CliError) return new CliError(err.message, err.exitCode, STOPPED);
  return err;
}

/** The notice on stderr: what the sandbox now holds beyond its seed. */
export function loadedText(from: FromDir, loaded: Loaded): string {
  if (from.backup) {
    const total = Object.values(loaded.records).reduce((a, b) => a + b, 0);
    const m = from.backup;
    const lines = [`Loaded ${from.dir} (a backup of ${m.account.company_name ?? m.account.api_origin}, ${m.finished_at}): its configuration, then ${total} record${total === 1 ? '' : 's'} (${Object.entries(loaded.records).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(', ')})${loaded.anonymized ? '; people\'s data replaced (--anonymize)' : ''}`];
    const left = Object.entries(loaded.not_restored ?? {}).filter(([, n]) => n);
    if (left.length) lines.push(`  not restored: ${left.map(([k, n]) => `${n} ${k}`).join(', ')} (docs/migrations.md, "What restore carries")`);
    return lines.join('\n');
  }
  const kinds = Object.entries(loaded.records).map(([k, n]) => `${n} ${k}`).join(', ');
  const total = Object.values(loaded.records).reduce((a, b) => a + b, 0);
  const lines = [`Loaded ${from.dir}: ${total} configuration record${total === 1 ? '' : 's'} from ${from.files.length} file${from.files.length === 1 ? '' : 's'}${kinds ? ` (${kinds})` : ''}`];
  if (from.samples.length) lines.push(`  sample: ${from.samples.map((s) => `${loaded.sample[s.kind] ?? 0} ${s.kind}`).join(', ')}`);
  return lines.join('\n');
}

/** Sets the fault rates of a running sandbox (as `crmctl sandbox faults` does). */
export async function armFaults(ctx: Context, url: string, faults: unknown): Promise<void> {
  const { rawRequest } = await import('../../http/raw.js');
  const res = await rawRequest(`${url}/__sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults), transport: ctx.env.CRMCTL_HTTP_TRANSPORT });
  if (res.status >= 400) throw new CliError(`The sandbox refused the fault rates (${res.status}): ${res.text.slice(0, 300)}`);
}
