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
    auth,
    checkScopes(api.scopes ?? (setup.envOverride ? undefined : setup.profile?.scopes), commonCommands(ALL_OPERATIONS), how),
  ];
  const failed = findings.filter((f) => f.status === 'fail');
  if (ctx.globals.output === 'json') {
    ctx.io.stdout.write(`${JSON.stringify({ ok: failed.length === 0, profile: profileName, checks: findings }, null, 2)}\n`);
  } else {
    const { formatReport } = await import('./format.js');
    ctx.io.stdout.write(await formatReport(findings, profileName, ctx.colorEnabled));
  }
  if (failed.length) {
    throw new CliError(`doctor found ${failed.length} problem${failed.length === 1 ? '' : 's'}: ${failed.map((f) => f.title.toLowerCase()).join(', ')}`, EXIT.ERROR);
  }
}
