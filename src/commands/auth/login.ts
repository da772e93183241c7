import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { DEFAULT_CALLBACK_PORT, readProfile, readStore, saveProfile, setDefaultProfile, validateProfileName } from '../../config/store.js';

export interface LoginOptions {
  authUrl: string | undefined;
  clientId: string | undefined;
  clientSecretStdin: boolean;
  callbackPort: number | undefined;
  browser: boolean;
  /** Seconds to wait for the authorization (default 300). */
  timeout: number | undefined;
}

function checkUrl(v: string, flag: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`${flag}: not a URL: "${v}"`, 'e.g. --auth-url https://oauth.example.com');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new UsageError(`${flag}: must be an http(s) URL (got "${v}")`);
  return v.replace(/\/+$/, '');
}

export async function runLogin(ctx: Context, o: LoginOptions): Promise<void> {
  const name = validateProfileName(await ctx.profileName());
  await (await import('../../auth/credentials.js')).settleSecrets(name, ctx.env, (l) => ctx.warn(l));
  // A profile whose keychain is locked or gone is read without its secrets: logging in again
  // replaces them all (in the config file with CRMCTL_SECRET_STORE=file, or where no keychain works).
  const read = await readProfile(name, ctx.env);
  const existing = read?.profile;
  if (read?.secretsUnavailable && ctx.env.CRMCTL_SECRET_STORE !== 'keychain') ctx.warn(`${read.secretsUnavailable.message.replace(/\.$/, '')}: this login keeps the new secrets in the config file (mode 0600)`);
  const port = o.callbackPort ?? existing?.callbackPort ?? DEFAULT_CALLBACK_PORT;
  const timeoutSec = o.timeout ?? 300;

  // Read stdin only when asked to: the secret first, then pasted redirect URLs (--no-browser).
  const wantsStdin = o.clientSecretStdin || !o.browser;
  const { LineReader } = await import('../../auth/lines.js');
  const lines = wantsStdin ? new LineReader(ctx.io.stdin) : undefined;
  try {
    let authUrl = o.authUrl ?? ctx.env.CRMCTL_AUTH_URL ?? existing?.authUrl;
    let clientId = o.clientId ?? ctx.env.CRMCTL_CLIENT_ID ?? existing?.clientId;
    if (!authUrl) {
      const p = await ctx.prompter();
      authUrl = await p.input({ message: 'OAuth server URL (auth URL):', flag: '--auth-url' });
    }
    authUrl = checkUrl(authUrl, '--auth-url');
    if (!clientId) {
      const p = await ctx.prompter();
      clientId = (await p.input({ message: 'Client ID of the app:', flag: '--client-id' })).trim();
    }
    if (!clientId) throw new UsageError('--client-id: must not be empty');

    let clientSecret: string | undefined;
    if (o.clientSecretStdin) {
      clientSecret = (await lines!.next())?.trim();
      if (!clientSecret) throw new UsageError('--client-secret-stdin: stdin had no client secret (give it as the first line)');
    } else if (ctx.env.CRMCTL_CLIENT_SECRET) {
      clientSecret = ctx.env.CRMCTL_CLIENT_SECRET;
    } else if (existing?.clientSecret && existing.clientId === clientId) {
      clientSecret = existing.clientSecret;
    } else {
      const p = await ctx.prompter();
      clientSecret = (await p.password({ message: 'Client secret of the app:', flag: '--client-secret-stdin (or env CRMCTL_CLIENT_SECRET)' })).trim();
      if (!clientSecret) throw new UsageError('the client secret must not be empty');
    }

    const [{ authorize }, { exchangeCode, fetchUser }] = await Promise.all([import('../../auth/login.js'), import('../../auth/oauth.js')]);
    const auth = await authorize({
      authUrl,
      clientId,
      port,
      openBrowser: o.browser !== false,
      timeoutMs: timeoutSec * 1000,
      paste: o.browser === false ? lines : undefined,
      stderr: ctx.io.stderr,
      debug: (l) => ctx.debug(l),
    });
    let ok = false;
    try {
      const tokens = await exchangeCode({ authUrl, clientId, clientSecret }, auth.code, auth.redirectUri, (l) => ctx.debug(l));
      const apiDomain = tokens.apiDomain ?? existing?.apiDomain;
      const user = apiDomain ? await fetchUser(apiDomain, tokens.accessToken) : undefined;
      const hadDefault = Boolean(readStore(ctx.env).defaultProfile);
      await saveProfile(
        name,
        {
          authUrl,
          clientId,
          clientSecret,
          callbackPort: port,
          apiDomain,
          accessToken: tokens.accessToken,
          refreshToken: tokens.refreshToken,
          expiresAt: tokens.expiresAt,
          scopes: tokens.scopes,
          user,
          kind: existing?.kind ?? 'oauth',
        },
        ctx.env,
      );
      if (!hadDefault && !ctx.env.CRMCTL_PROFILE) await setDefaultProfile(name, ctx.env);
      ok = true;
      await auth.finish({ ok: true });
      const who = user ? ` as ${user.name || user.email || `user ${user.id}`}` : '';
      // Said on stderr even off a terminal, as gh does: a login is done once by a person, who needs to see it worked and as whom.
      const scopes = tokens.scopes.length ? ` Scopes: ${tokens.scopes.join(', ')}.` : '';
      ctx.io.stderr.write(`Logged in to profile ${name}${who}.${scopes}\n`);
      if (!apiDomain) ctx.warn('the token response carried no api_domain; set CRMCTL_API_DOMAIN or log in again');
    } finally {
      if (!ok) await auth.finish({ ok: false, message: 'The code could not be exchanged for a token; see the terminal.' });
    }
  } finally {
    lines?.close();
  }
}
