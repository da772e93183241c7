/**
 * Which account a changes watermark belongs to: the API origin, the company and the user of the
 * credentials in use, as the service reports them (GET /api/v1/users/me, cost 2). A profile name is
 * not an account: env credentials (CRMCTL_ACCESS_TOKEN + CRMCTL_API_DOMAIN) run under the default
 * profile's name whatever account they reach, and a profile can be logged in to another company, so a
 * run for one account would move another's watermark.
 *
 * The same read gives the service's clock (its Date header), which relative `--since` spans need.
 *
 * Note for merging: run journals (src/runs/) are getting an account identity of their own; this is the
 * small one the changes feed needs until one shared function exists.
 */
import { userOps } from '../api/operations/users.js';
import { read } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { CliError } from '../core/errors.js';

export interface AccountIdentity {
  /** Scheme, host and port of the API address, e.g. https://acme.example.com. */
  origin: string;
  companyId: number | string;
  userId: number | string;
}

export async function accountIdentity(ctx: Context): Promise<AccountIdentity> {
  const { baseUrl } = await (await ctx.credentials()).get();
  const me = (await read(ctx, userOps.me)) as Record<string, unknown> | null;
  const companyId = me?.company_id;
  const userId = me?.id;
  if ((typeof companyId !== 'number' && typeof companyId !== 'string') || (typeof userId !== 'number' && typeof userId !== 'string')) {
    throw new CliError(`GET ${userOps.me.path} gave no company_id and id: the changes watermark cannot tell which account it belongs to.`);
  }
  return { origin: new URL(baseUrl).origin, companyId, userId };
}

/** The account as part of a file name: host (and port), company, user; readable, and safe on every file system. */
export function accountKey(a: AccountIdentity): string {
  const url = new URL(a.origin);
  const host = `${url.protocol === 'http:' ? 'http_' : ''}${url.hostname}${url.port ? `_${url.port}` : ''}`;
  return `${host}.c${a.companyId}.u${a.userId}`.replace(/[^\w.-]/g, '_');
}
