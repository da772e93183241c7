import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffBackups, diffLines, notCarriedOf } from '../../backup/diff.js';
import { readManifest, type Manifest } from '../../backup/format.js';
import { accountKey, IdMap } from '../../backup/idmap.js';
import { NOT_RESTORED } from '../../backup/restore-plan.js';
import { reportPath } from '../../backup/restore.js';
import type { Context } from '../../core/context.js';
import { ChangesFound, UsageError } from '../../core/errors.js';
import { renderDocument } from '../../output/report.js';
import { pullConfig } from '../backup/config-steps.js';

/** Reads the current account (ctx's credentials) into `out` as a backup would, without files' bytes; removed by the caller. */
async function readAccount(ctx: Context, out: string): Promise<void> {
  const { runBackup } = await import('../../backup/run.js');
  await runBackup(ctx, { out, resume: false, newRun: false, skip: [], fileBytes: false, thorough: false, ephemeral: true, pull: pullConfig });
}

/** A: a backup; B: a second backup, or (none given) this account read into a temporary backup. */
export async function runDiff(ctx: Context, dirA: string, dirB: string | undefined): Promise<void> {
  const ma = readManifest(dirA, 'DIR');
  let tmp: string | undefined;
  try {
    let b = dirB;
    if (b === undefined) {
      tmp = mkdtempSync(join(tmpdir(), 'crmctl-diff-'));
      b = join(tmp, 'account');
      await readAccount(ctx, b);
    }
    const mb = readManifest(b, dirB === undefined ? 'the account' : 'DIR2');
    const sameAccount = ma.account.api_origin === mb.account.api_origin && ma.account.company_id === mb.account.company_id;
    const key = accountKey({ origin: mb.account.api_origin, company_id: mb.account.company_id });
    const idmap = sameAccount ? undefined : IdMap.of(dirA, key);
    if (!sameAccount && !idmap) {
      throw new UsageError(
        `diff: ${dirA} is a backup of another account (${ma.account.api_origin}, company ${ma.account.company_id ?? '?'}) and was never restored into ${dirB ?? 'this account'} (no ${join(dirA, 'restore', key, 'idmap')}); ids of two accounts cannot be paired`,
        `Restore it first (crmctl restore ${dirA}), or compare two backups of one account.`,
      );
    }
    const d = await diffBackups({
      a: { dir: dirA, manifest: ma, label: dirA },
      b: { dir: b, manifest: mb, label: dirB ?? 'the account' },
      ...(idmap ? { idmap, notCarried: notCarriedOf(reportPath(dirA, key)) ?? {}, notRestored: NOT_RESTORED } : {}),
    });
    await renderDocument(ctx, { text: diffLines(d).join('\n'), json: d as unknown as Record<string, unknown>, columns: ['a', 'b', 'identical'] });
    if (!d.identical) throw new ChangesFound('diff: the backups differ');
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * `diff --from PROFILE --to PROFILE`: two live accounts, each read into a temporary backup (removed after).
 * They share no id map, so records pair by their natural key (name or title, and the names of what they
 * link to: kinds.ts); two profiles of one account pair by id.
 */
export async function runDiffAccounts(ctx: Context, from: string, to: string): Promise<void> {
  if (from === to) throw new UsageError(`--from and --to: both name the profile ${from}; give two profiles (two accounts) to compare`);
  const { envCredentialKind } = await import('../../auth/credentials.js');
  const env = envCredentialKind(ctx.env);
  if (env) {
    throw new UsageError(
      `--from/--to: read two profiles, but ${env === 'access_token' ? 'CRMCTL_ACCESS_TOKEN' : env === 'api_token' ? 'CRMCTL_API_TOKEN' : 'CRMCTL_REFRESH_TOKEN'} in the environment would stand for both`,
      'Unset it (each profile brings its own credentials), or compare a backup with this account: crmctl diff DIR.',
    );
  }
  const { createContext } = await import('../../runtime/create-context.js');
  const tmp = mkdtempSync(join(tmpdir(), 'crmctl-diff-'));
  try {
    const dirs: string[] = [];
    for (const profile of [from, to]) {
      const dir = join(tmp, profile.replace(/[^A-Za-z0-9._-]/g, '_'));
      const c = createContext(ctx.io, ctx.env, { ...ctx.globals, profile }, ctx.argv);
      try {
        await readAccount(c, dir);
      } finally {
        await c.close();
      }
      dirs.push(dir);
    }
    const [ma, mb] = dirs.map((d, i) => readManifest(d, i ? '--to' : '--from')) as [Manifest, Manifest];
    const sameAccount = ma.account.api_origin === mb.account.api_origin && ma.account.company_id === mb.account.company_id;
    const d = await diffBackups({
      a: { dir: dirs[0]!, manifest: ma, label: `profile ${from}` },
      b: { dir: dirs[1]!, manifest: mb, label: `profile ${to}` },
      pairing: sameAccount ? 'id' : 'natural key',
    });
    await renderDocument(ctx, { text: diffLines(d).join('\n'), json: d as unknown as Record<string, unknown>, columns: ['a', 'b', 'identical'] });
    if (!d.identical) throw new ChangesFound('diff: the accounts differ');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
