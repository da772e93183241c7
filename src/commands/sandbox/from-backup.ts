/**
 * `sandbox start --from DIR` when DIR is a backup (crmctl backup --out): the whole account in the new
 * sandbox, by the very restore `crmctl restore DIR` runs (configuration through the apply engine, then
 * every record kind with its links rewritten, archived records archived), as the sandbox's admin.
 *
 * The restore's id map goes where every restore's goes, DIR/restore/<the sandbox's account>/, so
 * `crmctl diff DIR` against the sandbox pairs its records. A folder of an earlier sandbox at the same
 * address is obsolete (a new sandbox holds none of its records) and is removed first. The backup's users
 * the sandbox lacks are added to it (users move by e-mail), so owners are kept. With `--anonymize` the
 * restore reads an anonymized copy instead (anonymize-backup.ts), in a temporary directory removed after.
 */
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { callOperation } from '../../api/call.js';
import { paths, type Manifest } from '../../backup/format.js';
import { accountKey } from '../../backup/idmap.js';
import { NOT_RESTORED } from '../../backup/restore-plan.js';
import { dirSide } from '../../backup/side.js';
import type { Context } from '../../core/context.js';
import { prepare, read } from '../../entry/prepare.js';
import { accountOf } from '../../runs/account.js';
import { CONTACT_SYNC_FIELDS, sandboxContext, type FromDir, type LoadOptions, type Loaded } from './from-dir-types.js';
import { applyConfig } from '../backup/config-steps.js';

/** Persons' members that exist only when the company has contact sync (the interface, Person). */

export async function loadBackup(ctx: Context, sandbox: { url: string; issueToken(): { access_token: string } }, from: FromDir, manifest: Manifest, o: LoadOptions): Promise<Loaded> {
  const work = mkdtempSync(join(tmpdir(), 'crmctl-from-backup-'));
  const child = await sandboxContext(ctx, sandbox);
  try {
    let dir = from.dir;
    if (o.anonymize) {
      dir = join(work, 'copy');
      const { anonymizedCopy } = await import('./anonymize-backup.js');
      await anonymizedCopy(from.dir, manifest, dir, ctx.env.CRMCTL_SAMPLE_KEY);
    } else {
      rmSync(paths.restore(dir, accountKey(await accountOf(child))), { recursive: true, force: true });
    }
    if (o.enableContactSync && (await personsUseContactSync(dir))) o.enableContactSync();
    await addMissingUsers(child, dir);
    const { runRestore } = await import('../../backup/restore.js');
    const report = await runRestore(child, { dir, resume: false, newRun: false, dryRun: false, mapUser: {}, intoNewSandbox: true, apply: applyConfig });
    const records = Object.fromEntries(Object.entries(report?.kinds ?? {}).map(([k, v]) => [k, v.created]));
    const notRestored = Object.fromEntries(Object.keys(NOT_RESTORED).filter((k) => (manifest.kinds[k]?.count ?? 0) > 0).map((k) => [k, manifest.kinds[k]!.count]));
    return { records, sample: {}, not_restored: notRestored, ...(o.anonymize ? { anonymized: true } : {}) };
  } finally {
    await child.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Did the source company have contact sync? Its persons carry those members only then. */
async function personsUseContactSync(dir: string): Promise<boolean> {
  const file = paths.records(dir, 'persons');
  if (!existsSync(file)) return false;
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  try {
    for await (const line of rl) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as Record<string, unknown>;
      if (CONTACT_SYNC_FIELDS.some((f) => f in r)) return true;
    }
  } finally {
    rl.close();
  }
  return false;
}

/** The backup's users the sandbox lacks, added by e-mail (a user is an invitation there: active, named after the address). */
async function addMissingUsers(ctx: Context, dir: string): Promise<void> {
  const { userOps } = await import('../../api/operations/users.js');
  const have = new Set(((await read(ctx, userOps.list)) as Array<{ email?: string }> | undefined ?? []).map((u) => String(u.email).toLowerCase()));
  const http = await ctx.http();
  for (const u of dirSide(dir).data.users) {
    const email = typeof u.email === 'string' ? u.email.toLowerCase() : undefined;
    if (!email || have.has(email)) continue;
    await callOperation(http, userOps.create, await prepare(ctx, userOps.create, { body: { email, active_flag: u.active_flag !== false } }));
    have.add(email);
  }
}
