/**
 * The account a run belongs to: the API origin, the company and the user the credentials act as. A
 * journal is only continued against the same account (issue 28.1: a journal written against one
 * profile "resumed" against another created nothing there and said it had).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../core/context.js';
import type { FieldCatalog } from '../names/catalog.js';
import type { AccountIdentity } from './account-words.js';
import { writeJsonAtomic } from '../fs/atomic-write.js';
import { hashOf } from './fingerprint.js';
import { runsDir } from './paths.js';

export type { AccountIdentity } from './account-words.js';
export { describeAccount } from './account-words.js';

/**
 * Who the credentials act as: the origin from the credentials, company and user from one
 * GET /api/v1/users/me (cost 2), read once per token. The profile only names it for people. Runs tie
 * their journals to it; the changes feed keys its watermark by it (`accountKey`). `ask`: read users/me
 * even when this token's account is known, for a caller that needs the service's clock from the answer
 * (its Date header: the changes feed's `--since 24h`), so that one read serves both.
 */
export function accountOf(ctx: Context, o: { ask?: boolean } = {}): Promise<AccountIdentity> {
  let known = o.ask ? undefined : seen.get(ctx);
  if (!known) {
    known = readAccount(ctx, o.ask === true);
    seen.set(ctx, known);
  }
  return known;
}

const seen = new WeakMap<Context, Promise<AccountIdentity>>();

async function readAccount(ctx: Context, ask: boolean): Promise<AccountIdentity> {
  const { origin, known, profile } = await knownOf(ctx, ask);
  return { origin, company_id: known.company_id, user_id: known.user_id, ...profile };
}

/**
 * The account's currency: its user's default currency (users/me), the one the service shows an amount
 * stored without a currency in. An export writes such an amount with it, so the file imports into
 * another account as the source showed it (a write needs the currency named). Read with the account
 * (one users/me a token); a token known from before this was kept asks once more.
 */
export async function accountCurrency(ctx: Context): Promise<string | undefined> {
  const first = await knownOf(ctx, false);
  const known = first.known.currency === undefined ? (await knownOf(ctx, true)).known : first.known;
  return known.currency ?? undefined;
}

/**
 * The account's currency, read (users/me, once) only when a page holds an amount the service keeps
 * without a currency: it is written with the account's (the service shows it so), and the file imports
 * into another account, where a write needs the currency named.
 */
export function currencyFor(ctx: Context, cat: FieldCatalog): (records: readonly unknown[]) => Promise<string | undefined> {
  let known: Promise<string | undefined> | undefined;
  return async (records) => {
    if (!known) {
      const { lacksCurrency } = await import('../names/read.js');
      if (!records.some((r) => lacksCurrency(cat, r))) return undefined;
      known = accountCurrency(ctx);
    }
    return known;
  };
}

/** What users/me said about this token (kept per token), the origin, and the profile that names it. */
async function knownOf(ctx: Context, ask: boolean): Promise<{ origin: string; known: Known; profile: { profile?: string } }> {
  const creds = await (await ctx.credentials()).get();
  const origin = new URL(creds.baseUrl).origin;
  // Loaded here, not at the top: a command that only links to runs (an area's verbs) keeps the credentials
  // module in the service chunk it loads when it calls the service (scripts/lib/chunk-groups.mjs).
  const { envCredentialKind } = await import('../auth/credentials.js');
  const profile = envCredentialKind(ctx.env) ? {} : { profile: await ctx.profileName() };
  // A token acts as one user of one company for its whole life: what users/me said about it is kept
  // (by a hash of the origin and the credentials, never the credentials), so a run pays the read once a token.
  const cacheFile = join(runsDir(ctx.env), 'accounts.json');
  const key = hashOf(`${origin}\u0000${JSON.stringify(creds.headers)}`);
  const cache = readCache(cacheFile);
  const known = cache[key];
  if (known && !ask) return { origin, known, profile };
  const [{ read }, { userOps }] = await Promise.all([import('../entry/prepare.js'), import('../api/operations/users.js')]);
  const me = ((await read(ctx, userOps.me)) ?? {}) as { id?: unknown; company_id?: unknown; default_currency?: unknown };
  const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null);
  const found: Known = { company_id: num(me.company_id), user_id: num(me.id), currency: typeof me.default_currency === 'string' && me.default_currency ? me.default_currency : null };
  // An answer without them is not kept: the next command asks again.
  if (found.company_id !== null && found.user_id !== null) keep(ctx, cacheFile, cache, key, found);
  return { origin, known: found, profile };
}

function keep(ctx: Context, file: string, cache: Record<string, Known>, key: string, found: Known): void {
  try {
    // A handful of tokens at most are alive at once; older entries go.
    const kept = Object.entries(cache).filter(([k]) => k !== key).slice(-19);
    writeJsonAtomic(file, Object.fromEntries([...kept, [key, found]]));
  } catch (err) {
    ctx.debug(`runs: could not keep the account of this token (${(err as Error).message})`);
  }
}

/** `currency` is absent in what an older crmctl kept (then asked once more). */
type Known = { company_id: number | null; user_id: number | null; currency?: string | null };

function readCache(file: string): Record<string, Known> {
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Known>) : {};
  } catch {
    return {};
  }
}

/** Same company, same user, same service: the profile name does not matter (two names may hold one login). */
export function sameAccount(a: AccountIdentity, b: AccountIdentity): boolean {
  return a.origin === b.origin && a.company_id === b.company_id && a.user_id === b.user_id;
}

/** `profile target: company 123 (user 7) at https://x.example`. */

/**
 * The account as part of a file name (the changes feed's watermark, <configDir>/changes/<key>.<kinds>.json):
 * host (and port), company, user; readable, and safe on every file system.
 */
export function accountKey(a: AccountIdentity): string {
  const url = new URL(a.origin);
  const host = `${url.protocol === 'http:' ? 'http_' : ''}${url.hostname}${url.port ? `_${url.port}` : ''}`;
  return `${host}.c${a.company_id ?? '_'}.u${a.user_id ?? '_'}`.replace(/[^\w.-]/g, '_');
}
