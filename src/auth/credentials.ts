import { join } from 'node:path';
import { AuthError, UsageError } from '../core/errors.js';
import type { CredentialSource } from '../http/types.js';
import { withFileLock } from '../fs/lock.js';
import { configDir, getProfile, migrateSecrets, resolveProfileName, updateProfile, type Profile } from '../config/store.js';
import { normalizeDomain, refreshTokens, type ClientCredentials, type TokenSet } from './oauth.js';

/** Refresh when the access token expires within this window. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * The early-refresh window: 60 s, but at most half the lifetime of a token this process just
 * obtained (a service issuing 30 s tokens must not cause a refresh before every request).
 */
function marginFor(expiresAt: number, obtainedAt: number): number {
  if (!obtainedAt) return REFRESH_MARGIN_MS;
  return Math.min(REFRESH_MARGIN_MS, Math.max(1_000, (expiresAt - obtainedAt) / 2));
}

export interface CredentialOptions {
  env: NodeJS.ProcessEnv;
  profile: string | undefined;
  debug: (line: string) => void;
  /** Notices the user should see once (a profile's secrets moved to the keychain). */
  warn?: (line: string) => void;
}

/**
 * The credential variables come in sets, and a set is used whole or not at all: a token with the API
 * address it belongs to, a refresh token with its client and OAuth server. Half a set is refused
 * (exit 2, nothing sent) instead of being completed from the stored profile: a CI job whose token
 * secret is missing (an empty variable) must not run against the default profile's account, and an
 * env token must not be sent to a profile's API address.
 */
function checkEnvSets(env: NodeJS.ProcessEnv): void {
  const given = (k: string) => Boolean(env[k]);
  const state = (k: string) => (env[k] === undefined ? 'not set' : 'empty');
  const token = ['CRMCTL_ACCESS_TOKEN', 'CRMCTL_API_TOKEN'].find(given);
  const refresh = given('CRMCTL_REFRESH_TOKEN');
  const nothingSent = 'Nothing was sent. Give the whole set (docs/auth.md, "CI and scripts"), or unset them all to use the stored profile.';
  if (given('CRMCTL_API_DOMAIN') && !token && !refresh) {
    const missing = env.CRMCTL_API_TOKEN !== undefined && env.CRMCTL_ACCESS_TOKEN === undefined ? 'CRMCTL_API_TOKEN' : 'CRMCTL_ACCESS_TOKEN';
    throw new UsageError(`CRMCTL_API_DOMAIN is set but ${missing} is ${state(missing)}: set CRMCTL_ACCESS_TOKEN (or CRMCTL_API_TOKEN) and CRMCTL_API_DOMAIN together, or neither`, nothingSent);
  }
  if (token && !given('CRMCTL_API_DOMAIN')) {
    throw new UsageError(`${token} is set but CRMCTL_API_DOMAIN is ${state('CRMCTL_API_DOMAIN')}: set ${token} and CRMCTL_API_DOMAIN together, or neither`, `${nothingSent} CRMCTL_API_DOMAIN is the api_domain of the token response, e.g. https://yourcompany.example.com.`);
  }
  if (refresh) {
    const missing = ['CRMCTL_CLIENT_ID', 'CRMCTL_CLIENT_SECRET', 'CRMCTL_AUTH_URL'].filter((k) => !given(k));
    if (missing.length) {
      throw new UsageError(`CRMCTL_REFRESH_TOKEN is set but ${missing.map((k) => `${k} is ${state(k)}`).join(', ')}: set CRMCTL_REFRESH_TOKEN, CRMCTL_CLIENT_ID, CRMCTL_CLIENT_SECRET and CRMCTL_AUTH_URL together, or none of them`, nothingSent);
    }
  }
}

/**
 * Which credentials the environment supplies, in precedence order (for `auth status` and `doctor` too).
 * Half a set of variables is refused here, so every command that reads credentials refuses it alike.
 */
export function envCredentialKind(env: NodeJS.ProcessEnv): 'access_token' | 'api_token' | 'refresh_token' | undefined {
  checkEnvSets(env);
  if (env.CRMCTL_ACCESS_TOKEN) return 'access_token';
  if (env.CRMCTL_API_TOKEN) return 'api_token';
  if (env.CRMCTL_REFRESH_TOKEN) return 'refresh_token';
  return undefined;
}

export function loginHint(profile: string): string {
  return `Run \`crmctl auth login --profile ${profile}\` (or set CRMCTL_ACCESS_TOKEN and CRMCTL_API_DOMAIN in CI).`;
}

export function refreshLockPath(env: NodeJS.ProcessEnv, profile: string): string {
  return join(configDir(env), `${profile}.refresh.lock`);
}

/**
 * Credentials for API calls. Precedence: CRMCTL_ACCESS_TOKEN (Bearer) / CRMCTL_API_TOKEN
 * (x-api-token) > CRMCTL_CLIENT_ID + CRMCTL_CLIENT_SECRET + CRMCTL_REFRESH_TOKEN (refreshed
 * in memory, config untouched) > the stored profile (refreshed under a cross-process lock).
 */
export async function createCredentialSource(opts: CredentialOptions): Promise<CredentialSource> {
  const { env, debug } = opts;
  const kind = envCredentialKind(env);
  if (kind === 'access_token' || kind === 'api_token') return envTokenSource(opts, kind);
  if (kind === 'refresh_token') return envRefreshSource(opts);
  const name = await resolveProfileName(env, opts.profile);
  return profileSource(name, env, debug, opts.warn);
}

async function envTokenSource(opts: CredentialOptions, kind: 'access_token' | 'api_token'): Promise<CredentialSource> {
  const { env, debug } = opts;
  // checkEnvSets made sure the address came with the token.
  const baseUrl = normalizeDomain(env.CRMCTL_API_DOMAIN!, 'CRMCTL_API_DOMAIN');
  const apiToken = env.CRMCTL_API_TOKEN;
  let accessToken = env.CRMCTL_ACCESS_TOKEN;
  const seen = new Set<string>([accessToken, apiToken, env.CRMCTL_CLIENT_SECRET, env.CRMCTL_REFRESH_TOKEN].filter((s): s is string => !!s));
  debug(`auth: using ${kind === 'access_token' ? 'CRMCTL_ACCESS_TOKEN (Bearer)' : 'CRMCTL_API_TOKEN (x-api-token)'} from the environment`);
  const refresher = kind === 'access_token' && env.CRMCTL_REFRESH_TOKEN ? envRefresher(opts) : undefined;
  return {
    async get() {
      const headers: Record<string, string> = kind === 'api_token' ? { 'x-api-token': apiToken! } : { authorization: `Bearer ${accessToken}` };
      return { baseUrl, headers };
    },
    async refreshAfter401() {
      if (!refresher) return false;
      const t = await refresher.refresh();
      accessToken = t.accessToken;
      seen.add(t.accessToken);
      if (t.refreshToken) seen.add(t.refreshToken);
      return true;
    },
    secrets: () => [...seen],
  };
}

/** In-memory refresh from env client credentials (the whole set, checkEnvSets); never writes the config file. */
function envRefresher(opts: CredentialOptions) {
  const { env, debug } = opts;
  let refreshToken = env.CRMCTL_REFRESH_TOKEN!;
  return {
    async refresh(): Promise<TokenSet> {
      const c: ClientCredentials = { authUrl: env.CRMCTL_AUTH_URL!, clientId: env.CRMCTL_CLIENT_ID!, clientSecret: env.CRMCTL_CLIENT_SECRET! };
      debug('auth: refreshing with CRMCTL_REFRESH_TOKEN (in memory; the config file is not touched)');
      const t = await refreshTokens(c, refreshToken, debug);
      if (t.refreshToken && t.refreshToken !== refreshToken) {
        debug('auth: the service rotated the refresh token; CRMCTL_REFRESH_TOKEN may stop working after this run');
        refreshToken = t.refreshToken;
      }
      return t;
    },
  };
}

async function envRefreshSource(opts: CredentialOptions): Promise<CredentialSource> {
  const { env, debug } = opts;
  const refresher = envRefresher(opts);
  const seen = new Set<string>([env.CRMCTL_CLIENT_SECRET!, env.CRMCTL_REFRESH_TOKEN!]);
  let current: TokenSet | undefined;
  let baseUrl: string | undefined;
  let obtainedAt = 0;
  const refresh = async () => {
    current = await refresher.refresh();
    obtainedAt = Date.now();
    seen.add(current.accessToken);
    if (current.refreshToken) seen.add(current.refreshToken);
    // The address comes with the environment's set or with the token, never from a stored profile.
    baseUrl = env.CRMCTL_API_DOMAIN ? normalizeDomain(env.CRMCTL_API_DOMAIN, 'CRMCTL_API_DOMAIN') : current.apiDomain;
    if (!baseUrl) throw new AuthError('The token response has no api_domain and CRMCTL_API_DOMAIN is not set.', 'Set CRMCTL_API_DOMAIN to the company API address.');
  };
  debug('auth: using CRMCTL_CLIENT_ID / CRMCTL_CLIENT_SECRET / CRMCTL_REFRESH_TOKEN from the environment');
  return {
    async get() {
      if (!current || current.expiresAt - Date.now() < marginFor(current.expiresAt, obtainedAt)) await refresh();
      return { baseUrl: baseUrl!, headers: { authorization: `Bearer ${current!.accessToken}` }, scopes: current!.scopes.length ? current!.scopes : undefined };
    },
    async refreshAfter401() {
      await refresh();
      return true;
    },
    secrets: () => [...seen],
  };
}

/**
 * First use of a profile whose secrets are not where this version keeps them (in the config file
 * while a keychain works, in keychain entries shared by every config directory): move them and say
 * so, once. Every command that reads a stored profile's secrets calls this first.
 */
export async function settleSecrets(name: string, env: NodeJS.ProcessEnv, warn: (line: string) => void): Promise<void> {
  const moved = await migrateSecrets(name, env);
  if (moved) warn(moved);
}

/** Credentials of a stored profile, refreshed near expiry and once after a 401. */
export async function profileSource(name: string, env: NodeJS.ProcessEnv, debug: (l: string) => void, warn: (l: string) => void = debug): Promise<CredentialSource> {
  await settleSecrets(name, env, warn);
  let profile = await getProfile(name, env);
  if (!profile?.accessToken) {
    throw new AuthError(
      profile ? `Profile "${name}" is not logged in.` : `Not logged in: there is no profile "${name}".`,
      loginHint(name),
    );
  }
  const seen = new Set<string>();
  const remember = (p: Profile) => {
    for (const s of [p.accessToken, p.refreshToken, p.clientSecret]) if (s) seen.add(s);
  };
  remember(profile);
  if (env.CRMCTL_CLIENT_SECRET) seen.add(env.CRMCTL_CLIENT_SECRET);

  let inflight: Promise<boolean> | undefined;
  // When this process obtained the token itself, a short-lived one is not refreshed on every call.
  let obtainedAt = 0;
  const refresh = (reason: 'expiry' | '401'): Promise<boolean> => {
    inflight ??= refreshProfile(name, env, profile!, reason, debug)
      .then((p) => {
        const changed = p.accessToken !== profile!.accessToken;
        if (changed) obtainedAt = Date.now();
        profile = p;
        remember(p);
        return changed;
      })
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  };

  return {
    loginHint: () => loginHint(name),
    async get() {
      if (profile!.expiresAt !== undefined && profile!.expiresAt - Date.now() < marginFor(profile!.expiresAt, obtainedAt)) {
        try {
          await refresh('expiry');
        } catch (err) {
          // Refreshing early failed, but the token still works for a few seconds: use it.
          if (profile!.expiresAt - Date.now() < 5_000) throw err;
          debug(`auth: early refresh failed (${err instanceof Error ? err.message : String(err)}); using the current token until it expires`);
        }
      }
      if (!profile!.apiDomain) throw new AuthError(`Profile "${name}" has no API address (apiDomain).`, loginHint(name));
      return { baseUrl: profile!.apiDomain, headers: { authorization: `Bearer ${profile!.accessToken}` }, scopes: profile!.scopes };
    },
    async refreshAfter401() {
      debug(`auth: 401 with the stored access token of profile ${name}; refreshing once`);
      return refresh('401');
    },
    secrets: () => [...seen],
  };
}

/**
 * Refreshes the profile's tokens under a cross-process lock. After acquiring the lock the profile
 * is read again: if another process already refreshed (the stored access token is fresh and is not
 * the one that failed), its tokens are used instead of refreshing a second time.
 */
export async function refreshProfile(
  name: string,
  env: NodeJS.ProcessEnv,
  known: Profile,
  reason: 'expiry' | '401' | 'forced',
  debug: (l: string) => void,
): Promise<Profile> {
  const lock = refreshLockPath(env, name);
  return withFileLock(
    lock,
    async () => {
      const cur = await getProfile(name, env);
      if (!cur?.accessToken) throw new AuthError(`Profile "${name}" is not logged in (it was logged out meanwhile).`, loginHint(name));
      const fresh = cur.expiresAt === undefined || cur.expiresAt - Date.now() >= REFRESH_MARGIN_MS;
      const otherDidIt = cur.accessToken !== known.accessToken || cur.refreshToken !== known.refreshToken;
      if (reason === 'expiry' && (fresh || (otherDidIt && cur.expiresAt! - Date.now() > 5_000))) {
        debug(`auth: profile ${name} already has a fresh token (${otherDidIt ? 'refreshed by another process' : 'not expired'})`);
        return cur;
      }
      if (reason === '401' && otherDidIt && fresh) {
        debug(`auth: profile ${name} was refreshed by another process; using its token`);
        return cur;
      }
      if (!cur.refreshToken) throw new AuthError(`The access token of profile "${name}" expired and there is no refresh token.`, loginHint(name));
      const clientSecret = cur.clientSecret ?? env.CRMCTL_CLIENT_SECRET;
      if (!cur.authUrl || !cur.clientId || !clientSecret) {
        throw new AuthError(`Profile "${name}" cannot refresh its token: the auth URL, client id or client secret is missing.`, `${loginHint(name)} (or set CRMCTL_CLIENT_SECRET)`);
      }
      debug(`auth: refreshing the access token of profile ${name} (${reason === 'expiry' ? 'expires within 60 s' : reason === '401' ? 'after a 401' : 'asked for'})`);
      let t: TokenSet;
      try {
        t = await refreshTokens({ authUrl: cur.authUrl, clientId: cur.clientId, clientSecret }, cur.refreshToken, debug);
      } catch (err) {
        if (err instanceof AuthError) throw new AuthError(err.message, loginHint(name));
        throw err;
      }
      const updated = await updateProfile(name, env, () => ({
        accessToken: t.accessToken,
        refreshToken: t.refreshToken ?? cur.refreshToken,
        expiresAt: t.expiresAt,
        ...(t.scopes.length ? { scopes: t.scopes } : {}),
        ...(t.apiDomain ? { apiDomain: t.apiDomain } : {}),
      }));
      return updated!;
    },
    { staleMs: 30_000, timeoutMs: 60_000, onWait: (h) => debug(`auth: waiting for another crmctl refreshing profile ${name} (lock ${lock}, holder ${h.split(' ')[0] || '?'})`) },
  );
}
