import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffBackups, diffLines, notCarriedOf } from '../../backup/diff.js';
import { readManifest } from '../../backup/format.js';
import { accountKey, IdMap } from '../../backup/idmap.js';
import { NOT_RESTORED } from '../../backup/restore-plan.js';
import { reportPath } from '../../backup/restore.js';
import type { Context } from '../../core/context.js';
import { ChangesFound, UsageError } from '../../core/errors.js';
import { renderDocument } from '../../output/report.js';

/** A: a backup; B: a second backup, or (none given) this account read into a temporary backup. */
export async function runDiff(ctx: Context, dirA: string, dirB: string | undefined): Promise<void> {
  const ma = readManifest(dirA, 'DIR');
  let tmp: string | undefined;
  try {
    let b = dirB;
    if (b === undefined) {
      tmp = mkdtempSync(join(tmpdir(), 'crmctl-diff-'));
      b = join(tmp, 'account');
      const { runBackup } = await import('../../backup/run.js');
      await runBackup(ctx, { out: b, resume: false, newRun: false, skip: [], fileBytes: false, thorough: false, ephemeral: true });
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
