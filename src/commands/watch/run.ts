import { read } from '../../entry/prepare.js';
import type { Context } from '../../core/context.js';
import { ChangesFound } from '../../core/errors.js';
import { atOrAbove, auditWithNotice, FINDING_COLUMNS, FINDING_FIELDS, settingsOf, summary, type AuditFlags } from '../../health/audit/session.js';
import { checkPostUrl, postFindings, postText } from '../../health/post.js';
import type { Severity } from '../../health/types.js';
import { WatchStore } from '../../health/watch-store.js';
import { renderRecords } from '../../output/render.js';
import { accountOf } from '../../runs/account.js';

export async function runWatch(ctx: Context, flags: AuditFlags & { failOn: Severity; post?: string; baseline: boolean; reset: boolean }): Promise<void> {
  const { cfg, asOf } = settingsOf(flags);
  const { baseUrl } = await (await ctx.credentials()).get();
  // Checked before anything is read or sent: a bad URL is exit 2 with no request made.
  const post = flags.post === undefined ? undefined : checkPostUrl(flags.post, baseUrl);
  const profile = await ctx.profileName();
  const { userOps } = await import('../../api/operations/users.js');
  const me = (await read(ctx, userOps.me, {})) as { company_id?: number; company_name?: string } | undefined;
  if (me?.company_id === undefined) throw new Error('internal: users/me answered without company_id');
  // Keyed by the account as every per-account state is; the file an older crmctl kept per profile is moved in once.
  const store = new WatchStore(ctx.env, await accountOf(ctx), { profile, companyId: me.company_id, baseUrl });
  if (flags.reset) {
    ctx.io.stderr.write(store.reset() ? `Forgot the findings watch saw on company ${me.company_id}.\n` : `Nothing to forget: watch has not run on company ${me.company_id}.\n`);
    return;
  }
  const release = await store.lock();
  try {
    const { findings, asOf: day } = await auditWithNotice(ctx, cfg, asOf);
    const diff = store.diff(findings);
    if (flags.baseline) {
      store.save(findings, day);
      ctx.io.stderr.write(`watch: recorded ${summary(findings)} as seen; the next run reports only new ones.\n`);
      return;
    }
    await renderRecords(ctx, diff.fresh, { columns: FINDING_COLUMNS, fields: FINDING_FIELDS });
    const headline = `crmctl watch: ${diff.fresh.length ? summary(diff.fresh).replace(/findings?/, (w) => `new ${w}`) : 'no new findings'} on ${me.company_name ?? `company ${me.company_id}`} (profile ${profile}, as of ${day})`;
    if (post && diff.fresh.length) {
      await postFindings(post, { text: postText(headline, diff.fresh), findings: diff.fresh }, ctx.env.CRMCTL_HTTP_TRANSPORT);
      ctx.info(`watch: posted ${diff.fresh.length} new findings to ${post.protocol}//${post.host}.`);
    }
    store.save(findings, day);
    ctx.info(`watch: ${diff.fresh.length} new, ${diff.still.length} still open, ${diff.gone.length} gone since ${diff.last ?? 'never (first run)'}.`);
    const failing = atOrAbove(diff.fresh, flags.failOn);
    if (failing.length) {
      ctx.io.stderr.write(`watch: ${summary(failing).replace(/findings?/, (w) => `new ${w}`)} at or above ${flags.failOn}; exit 8.\n`);
      throw new ChangesFound(`watch: ${failing.length} new findings at or above ${flags.failOn}`);
    }
  } finally {
    release();
  }
}
