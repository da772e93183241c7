// What `sandbox start --from` reads and loads, shared by the two loaders (from-dir.ts: configuration and
// samples; from-backup.ts: a backup through restore), and the context they load through. Apart from both, so
// neither loader imports the other's module for them.
import { Readable, Writable } from 'node:stream';
import type { Context } from '../../core/context.js';
import type { IO } from '../../core/io.js';
import type { Manifest } from '../../backup/format.js';
import type { SampleKind } from '../pull/sample-policy.js';

/** What `sandbox start --from` found in the directory, checked before the sandbox starts. */
export interface FromDir {
  dir: string;
  /** Configuration files (as `apply -f <dir>` reads them, without reference.yaml). */
  files: string[];
  /** sample/<kind>.csv files present, in load order. */
  samples: Array<{ kind: SampleKind; file: string }>;
  /** The files are configuration (as `crmctl pull` writes: matched with the account by natural key), not fixtures. */
  config: boolean;
  /** Records of the files by kind, for the notice (configuration has no state file to count from). */
  kinds: Record<string, number>;
  /** The directory is a backup (crmctl backup --out): loaded by restore (from-backup.ts). */
  backup?: Manifest;
}

/** What was loaded, for the notice on stderr and the start-up JSON. */
export interface Loaded {
  records: Record<string, number>;
  sample: Partial<Record<SampleKind, number>>;
  /** A backup's kinds that restore does not write, with their count (files, followers…). */
  not_restored?: Record<string, number>;
  /** People's data was replaced (--anonymize). */
  anonymized?: boolean;
}

/** A person's members that exist only when the company has contact sync (interface: persons). */
export const CONTACT_SYNC_FIELDS = ['ims', 'postal_address', 'notes', 'birthday', 'job_title'];

/** How a backup is loaded (`--anonymize`; the company's switches a restore needs, set on the sandbox itself). */
export interface LoadOptions {
  anonymize: boolean;
  /** Turns on contact sync (the persons' members that exist only with it: postal address, birthday…). */
  enableContactSync?: () => void;
}

/**
 * A context acting as the sandbox's admin, for the commands' own machinery (apply, import, restore).
 * Field names are read fresh: a cache is per address, and another sandbox on this port may have had other
 * fields. The commands' own reports (result rows, summaries) are not this command's output: they go nowhere.
 */
export async function sandboxContext(ctx: Context, sandbox: { url: string; issueToken(): { access_token: string } }): Promise<Context> {
  const { createContext } = await import('../../runtime/create-context.js');
  const env: NodeJS.ProcessEnv = { ...ctx.env, CRMCTL_API_DOMAIN: sandbox.url, CRMCTL_ACCESS_TOKEN: sandbox.issueToken().access_token, CRMCTL_FIELDS_TTL_SEC: '0' };
  delete env.CRMCTL_API_TOKEN;
  return createContext(quietIO(ctx), env, { ...ctx.globals, profile: undefined, output: 'json', query: undefined }, ctx.argv);
}

function quietIO(ctx: Context): IO {
  const sink = new Writable({ write: (_chunk, _enc, done) => done() });
  return { stdin: Readable.from([]), stdout: sink, stderr: ctx.globals.debug ? ctx.io.stderr : sink, isStdinTTY: false, isStdoutTTY: false, isStderrTTY: false, columns: 0 };
}
