import { ALL_OPERATIONS } from '../../api/operations/index.js';
import type { Context } from '../../core/context.js';
import { CliError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { skip, type Finding } from './finding.js';
import { checkConfigFile, checkCredentials, checkTokenExpiry, readSetup } from './local.js';
import { checkApi, checkAuthServer } from './remote.js';
import { checkScopes, commonCommands } from './scopes.js';

export async function runDoctor(ctx: Context): Promise<void> {
  const profileName = await ctx.profileName();
  const setup = await readSetup(ctx.env, profileName);
  const credentials = checkCredentials(setup);
  const [api, auth] = await Promise.all([checkApi(ctx, setup), checkAuthServer(ctx.env, setup)]);
  const how = setup.envOverride ?? `profile "${profileName}"`;
  const findings: Finding[] = [
    checkConfigFile(ctx.env, setup),
    credentials,
    checkTokenExpiry(setup, ctx.env),
    // Without credentials there is no API address to try; one finding (and one fix) is enough.
    credentials.status === 'fail' ? skip('api-reachable', api.reach.title, 'needs credentials (see above)') : api.reach,
    api.skew,
    credentials.status === 'fail' ? skip('daily-budget', api.budget.title, 'needs credentials (see above)') : api.budget,
    auth,
    checkScopes(api.scopes ?? (setup.envOverride ? undefined : setup.profile?.scopes), commonCommands(ALL_OPERATIONS), how),
  ];
  const failed = findings.filter((f) => f.status === 'fail');
  const [{ reportWriter }, { formatFor }] = await Promise.all([import('../../output/report.js'), import('../../output/format.js')]);
  const out = reportWriter<Finding>(ctx, { columns: ['id', 'status', 'title', 'detail', 'fix'], line: () => '' });
  if (formatFor(ctx, 'report') === 'text') {
    const { formatReport } = await import('./format.js');
    await out.end({ text: (await formatReport(findings, profileName, ctx.colorEnabled)).replace(/\n$/, ''), json: null, painted: true });
  } else {
    for (const f of findings) await out.row(f);
    await out.end({ text: failed.length ? `${failed.length} problem${failed.length === 1 ? '' : 's'} found.` : 'All checks passed.', json: { ok: failed.length === 0, profile: profileName, checks: findings } });
  }
  if (failed.length) {
    throw new CliError(`doctor found ${failed.length} problem${failed.length === 1 ? '' : 's'}: ${failed.map((f) => f.title.toLowerCase()).join(', ')}`, EXIT.ERROR);
  }
}
