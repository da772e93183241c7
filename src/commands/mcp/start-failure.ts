import type { Context } from '../../core/context.js';
import { AuthError, CliError } from '../../core/errors.js';

/**
 * Why `crmctl mcp` could not start, as ONE line: clients show a server's stderr in a log (or only its
 * last line) and otherwise say no more than "Connection closed". The usual cause is the client's
 * environment: clients start servers without the user's shell variables (CRMCTL_CONFIG_DIR, tokens), so
 * the line names the profile and the directory looked in, and the two fixes.
 */
export async function startFailure(ctx: Context, err: unknown): Promise<unknown> {
  if (!(err instanceof CliError)) return err;
  const [{ configDir }, { envCredentialKind }] = await Promise.all([import('../../config/store.js'), import('../../auth/credentials.js')]);
  if (err instanceof AuthError && !envCredentialKind(ctx.env)) {
    // No hint line: the fixes are in the line itself.
    return new AuthError(`crmctl mcp: no credentials for profile "${await ctx.profileName()}" in ${configDir(ctx.env)} (set CRMCTL_CONFIG_DIR in the client's env, or run crmctl auth login)`, '');
  }
  const why = [err.message, err.hint].filter(Boolean).join(' ').replace(/\s*\n\s*/g, ' ');
  return new CliError(`crmctl mcp: cannot start: ${why}`, err.exitCode);
}
