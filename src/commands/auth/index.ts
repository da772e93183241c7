import type { AreaModule, CommandSpec } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import type { Context } from '../../core/context.js';
import { AuthError, NotFoundError } from '../../core/errors.js';

const login = defineCommand({
  path: ['auth', 'login'],
  summary: 'Log in with OAuth in the browser and store the tokens in a profile',
  description: [
    'Starts a one-shot server on 127.0.0.1:PORT, prints the authorize URL on stderr and opens it in the browser; after you allow the app, the redirect to http://127.0.0.1:PORT/callback delivers the code, which is exchanged for tokens stored in the profile: the secrets in the OS keychain where one works, else in the config file (mode 0600); CRMCTL_SECRET_STORE=file|keychain forces one (docs/auth.md).',
    'The auth URL, client id, client secret and callback port are saved on the first login and reused. The client secret is read from a prompt, from stdin (--client-secret-stdin) or from env CRMCTL_CLIENT_SECRET; it is never accepted as a flag value.',
    'With --no-browser nothing is opened: open the printed URL anywhere and either let it redirect to this machine or paste the URL it was redirected to (or just the code) on stdin.',
  ].join('\n\n'),
  examples: [
    'crmctl auth login --auth-url https://oauth.example.com --client-id abc123',
    'crmctl auth login --profile sandbox --no-browser',
    'printf "%s\\n" "$SECRET" | crmctl auth login --client-id abc123 --client-secret-stdin',
  ],
  flags: {
    authUrl: flag.string({ value: 'url', description: 'OAuth server address (env CRMCTL_AUTH_URL); saved in the profile' }),
    clientId: flag.string({ value: 'id', description: 'client id of the registered app (env CRMCTL_CLIENT_ID); saved in the profile' }),
    clientSecretStdin: flag.bool({ description: 'read the client secret from the first line of stdin' }),
    callbackPort: flag.int({
      min: 1,
      max: 65535,
      description: 'loopback port of the callback (default: the profile\'s, else 8250); must equal the app\'s registered callback http://127.0.0.1:N/callback; saved in the profile',
    }),
    browser: flag.negated({ description: 'do not open a browser; print the URL and also accept the pasted redirect URL or code on stdin' }),
    timeout: flag.positive({ value: 'seconds', description: 'give up waiting for the authorization after this long (default 300)' }),
  },
  async run(ctx, { flags }) {
    const { runLogin } = await import('./login.js');
    await runLogin(ctx, flags);
  },
});

function iso(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString();
}

const status: CommandSpec = {
  path: ['auth', 'status'],
  summary: 'Show the profile, user, scopes, token expiry and API address (never a token)',
  description: 'Reports what the next command would use: the profile and where it is stored, and whether environment credentials (CRMCTL_ACCESS_TOKEN, CRMCTL_API_TOKEN, CRMCTL_REFRESH_TOKEN) override it. `secretStore` says where the profile\'s secrets are: the OS keychain, or the config file (mode 0600) where no keychain works (CRMCTL_SECRET_STORE=file|keychain forces one). When logged in, also the daily token budget left, from one GET /api/v1/users/me (cost 2; `budget` says why not when the service does not tell). Exit code 4 when not logged in.',
  examples: ['crmctl auth status', 'crmctl auth status --profile sandbox --json'],
  fields: ['profile', 'loggedIn', 'default', 'user', 'scopes', 'expiresAt', 'expiresInSeconds', 'refreshable', 'apiDomain', 'authUrl', 'clientId', 'callbackPort', 'kind', 'configPath', 'envOverride', 'secretStore', 'budget', 'budgetRemaining', 'budgetLimit', 'budgetResetsAt'],
  async run(ctx) {
    const [{ getProfile, configPath, readStore, DEFAULT_PROFILE }, { envCredentialKind, settleSecrets }] = await Promise.all([
      import('../../config/store.js'),
      import('../../auth/credentials.js'),
    ]);
    const name = await ctx.profileName();
    await settleSecrets(name, ctx.env, (l) => ctx.warn(l));
    const p = await getProfile(name, ctx.env);
    const def = readStore(ctx.env).defaultProfile || DEFAULT_PROFILE;
    const envKind = envCredentialKind(ctx.env);
    const envOverride =
      envKind === 'access_token' ? 'CRMCTL_ACCESS_TOKEN' : envKind === 'api_token' ? 'CRMCTL_API_TOKEN' : envKind === 'refresh_token' ? 'CRMCTL_REFRESH_TOKEN' : null;
    const record = {
      profile: name,
      loggedIn: Boolean(p?.accessToken),
      default: name === def,
      user: p?.user ? `${p.user.name}${p.user.email ? ` <${p.user.email}>` : ''} (id ${p.user.id})` : null,
      scopes: p?.scopes ?? [],
      expiresAt: iso(p?.expiresAt),
      expiresInSeconds: p?.expiresAt !== undefined ? Math.round((p.expiresAt - Date.now()) / 1000) : null,
      refreshable: Boolean(p?.refreshToken && (p.clientSecret || ctx.env.CRMCTL_CLIENT_SECRET)),
      apiDomain: p?.apiDomain ?? null,
      authUrl: p?.authUrl ?? null,
      clientId: p?.clientId ?? null,
      callbackPort: p?.callbackPort ?? null,
      kind: p?.kind ?? null,
      configPath: configPath(ctx.env),
      envOverride,
      secretStore: null as string | null,
      ...(await budgetFields(ctx, Boolean(p?.accessToken) || envOverride !== null)),
    };
    // Read after the budget's call: that first use may have moved the secrets to the keychain.
    const stored = readStore(ctx.env).profiles[name];
    record.secretStore = envOverride ? 'environment' : !p?.accessToken && !p?.refreshToken && !p?.clientSecret ? null : stored?.secretStore === 'keychain' ? 'keychain' : 'file';
    await renderOne(ctx, record);
    if (envOverride) ctx.warn(`${envOverride} is set in the environment and overrides profile ${name}'s stored credentials`);
    if (!record.loggedIn && !envOverride) {
      throw new AuthError(p ? `Profile "${name}" is not logged in.` : `Not logged in: there is no profile "${name}".`, `Run \`crmctl auth login --profile ${name}\`.`);
    }
  },
};

const token: CommandSpec = {
  path: ['auth', 'token'],
  summary: 'Print the access token on stdout (refreshing it first if needed) — prints a secret',
  description:
    'The one command that prints a secret: the current access token, for use in scripts (e.g. curl -H "Authorization: Bearer $(crmctl auth token)"). Refreshes the token first when it expires within 60 seconds. With CRMCTL_ACCESS_TOKEN or CRMCTL_API_TOKEN set, prints that.',
  examples: ['crmctl auth token', 'curl -H "Authorization: Bearer $(crmctl auth token)" "$API/api/v1/leadLabels"'],
  async run(ctx) {
    const creds = await ctx.credentials();
    const { headers } = await creds.get();
    const value = headers.authorization?.replace(/^Bearer\s+/i, '') ?? headers['x-api-token'];
    if (!value) throw new AuthError('No token is available.');
    ctx.io.stdout.write(`${value}\n`);
  },
};

const refresh: CommandSpec = {
  path: ['auth', 'refresh'],
  summary: 'Refresh the profile\'s access token now',
  examples: ['crmctl auth refresh', 'crmctl auth refresh --profile sandbox'],
  async run(ctx) {
    const [{ getProfile }, { refreshProfile, loginHint, settleSecrets }] = await Promise.all([import('../../config/store.js'), import('../../auth/credentials.js')]);
    const name = await ctx.profileName();
    await settleSecrets(name, ctx.env, (l) => ctx.warn(l));
    const p = await getProfile(name, ctx.env);
    if (!p?.accessToken) throw new AuthError(p ? `Profile "${name}" is not logged in.` : `Not logged in: there is no profile "${name}".`, loginHint(name));
    const next = await refreshProfile(name, ctx.env, p, 'forced', (l) => ctx.debug(l));
    const secs = next.expiresAt !== undefined ? Math.round((next.expiresAt - Date.now()) / 1000) : undefined;
    ctx.info(`Refreshed profile ${name}${secs !== undefined ? `; the access token expires in ${secs} s (${iso(next.expiresAt)})` : ''}.`);
  },
};

const logout: CommandSpec = {
  path: ['auth', 'logout'],
  summary: 'Revoke the tokens (best effort) and remove them from the profile',
  description: 'Keeps the profile\'s settings (auth URL, client id and secret, callback port) so the next `crmctl auth login` needs no flags; remove the profile with `crmctl auth profiles remove`. A profile whose OS keychain is locked or gone is logged out too: its tokens cannot be revoked or read, so the profile forgets them and its client secret (the keychain keeps its entries until it is back).',
  examples: ['crmctl auth logout', 'crmctl auth logout --profile sandbox'],
  async run(ctx) {
    const [{ readProfile, updateProfile }, { revokeToken }, { settleSecrets }] = await Promise.all([import('../../config/store.js'), import('../../auth/oauth.js'), import('../../auth/credentials.js')]);
    const name = await ctx.profileName();
    await settleSecrets(name, ctx.env, (l) => ctx.warn(l));
    const read = await readProfile(name, ctx.env);
    if (!read) throw new NotFoundError(`There is no profile "${name}".`, 'See `crmctl auth profiles list`.');
    if (read.secretsUnavailable) {
      // The way out of a keychain that is gone (docs/auth.md): forget every secret, then log in again.
      await updateProfile(name, ctx.env, () => ({ ...TOKENS_FORGOTTEN, clientSecret: undefined }));
      ctx.warn(`${read.secretsUnavailable.message.replace(/\.$/, '')}: its tokens were not revoked and stay in the keychain; the profile forgot them and its client secret (give it again at the next \`crmctl auth login\`)`);
      ctx.info(`Logged out of profile ${name}.`);
      return;
    }
    const p = read.profile;
    if (!p.accessToken && !p.refreshToken) {
      ctx.info(`Profile ${name} was not logged in.`);
      return;
    }
    const secret = p.clientSecret ?? ctx.env.CRMCTL_CLIENT_SECRET;
    let revoked = false;
    if (p.authUrl && p.clientId && secret) {
      const c = { authUrl: p.authUrl, clientId: p.clientId, clientSecret: secret };
      const results = await Promise.all([
        p.refreshToken ? revokeToken(c, p.refreshToken, 'refresh_token') : Promise.resolve(true),
        p.accessToken ? revokeToken(c, p.accessToken, 'access_token') : Promise.resolve(true),
      ]);
      revoked = results.every(Boolean);
    }
    await updateProfile(name, ctx.env, () => TOKENS_FORGOTTEN);
    if (!revoked) ctx.warn('could not revoke the tokens at the OAuth server; they were removed locally');
    ctx.info(`Logged out of profile ${name}.`);
  },
};

/** What logging out removes from a profile. */
const TOKENS_FORGOTTEN = { accessToken: undefined, refreshToken: undefined, expiresAt: undefined, scopes: undefined, user: undefined };

const profilesList: CommandSpec = {
  path: ['auth', 'profiles', 'list'],
  summary: 'List the stored profiles',
  examples: ['crmctl auth profiles list', 'crmctl auth profiles list --json'],
  aliases: ['ls'],
  fields: ['name', 'default', 'loggedIn', 'kind', 'user', 'apiDomain', 'authUrl', 'callbackPort', 'expiresAt'],
  async run(ctx) {
    const { listProfiles } = await import('../../config/store.js');
    const rows = (await listProfiles(ctx.env)).map(({ name, profile: p, isDefault }) => ({
      name,
      default: isDefault,
      loggedIn: Boolean(p.accessToken),
      kind: p.kind ?? 'oauth',
      user: p.user ? p.user.email || p.user.name : null,
      apiDomain: p.apiDomain ?? null,
      authUrl: p.authUrl ?? null,
      callbackPort: p.callbackPort ?? null,
      expiresAt: iso(p.expiresAt),
    }));
    await renderMany(ctx, rows, ['name', 'default', 'loggedIn', 'kind', 'user', 'apiDomain']);
  },
};

const profilesUse: CommandSpec = {
  path: ['auth', 'profiles', 'use'],
  summary: 'Make a profile the default',
  examples: ['crmctl auth profiles use sandbox'],
  args: [{ name: 'name', description: 'profile name' }],
  async run(ctx, { args }) {
    const { readStore, setDefaultProfile, validateProfileName } = await import('../../config/store.js');
    const name = validateProfileName(args[0]!);
    if (!readStore(ctx.env).profiles[name]) {
      throw new NotFoundError(`There is no profile "${name}".`, `See \`crmctl auth profiles list\`, or create it with \`crmctl auth login --profile ${name}\`.`);
    }
    await setDefaultProfile(name, ctx.env);
    ctx.info(`Default profile is now ${name}.`);
  },
};

const profilesRemove: CommandSpec = {
  path: ['auth', 'profiles', 'remove'],
  summary: 'Delete a stored profile and its tokens (asks first; --yes off a terminal)',
  examples: ['crmctl auth profiles remove old-account', 'crmctl auth profiles remove old-account --yes'],
  aliases: ['rm'],
  args: [{ name: 'name', description: 'profile name' }],
  async run(ctx, { args }) {
    const { readStore, removeProfile, validateProfileName } = await import('../../config/store.js');
    const name = validateProfileName(args[0]!);
    // Read without its secrets: a profile whose keychain is gone can still be removed.
    if (!readStore(ctx.env).profiles[name]) throw new NotFoundError(`There is no profile "${name}".`, 'See `crmctl auth profiles list`.');
    await ctx.confirm(`Remove profile "${name}" and its stored tokens?`);
    await removeProfile(name, ctx.env, (l) => ctx.warn(l));
    ctx.info(`Removed profile ${name}.`);
  },
};

/** The daily budget left, for the status report (one cheap call; nothing is sent when logged out). */
async function budgetFields(ctx: Context, loggedIn: boolean): Promise<Record<string, unknown>> {
  const none = { budgetRemaining: null, budgetLimit: null, budgetResetsAt: null };
  if (!loggedIn) return { budget: null, ...none };
  const [{ probeBudget }, { budgetLine }] = await Promise.all([import('../budget/probe.js'), import('../../http/daily-budget.js')]);
  const r = await probeBudget(ctx);
  if ('why' in r) return { budget: `unknown: ${r.why}`, ...none };
  const now = Date.parse(r.view.resetsAt) - r.view.resetsInSeconds * 1000;
  return { budget: budgetLine(r.view, now), budgetRemaining: r.view.remaining, budgetLimit: r.view.limit, budgetResetsAt: r.view.resetsAt };
}

async function renderOne(ctx: Context, record: Record<string, unknown>): Promise<void> {
  const [{ renderRecord, checkFields, writeOut }, { tsvCell }, { formatFor }] = await Promise.all([import('../../output/render.js'), import('../../output/cells.js'), import('../../output/format.js')]);
  // A status report is field/value pairs: a grid on a terminal, `field<TAB>value` lines when piped (TSV, as every command pipes).
  if (formatFor(ctx, 'records') !== 'tsv') return renderRecord(ctx, record);
  checkFields(ctx, Object.keys(record));
  const keys = ctx.globals.fields ?? Object.keys(record);
  await writeOut(ctx.io.stdout, keys.map((k) => `${tsvCell(k)}\t${tsvCell(record[k])}\n`).join(''));
}

async function renderMany(ctx: Context, rows: Record<string, unknown>[], columns: string[]): Promise<void> {
  const { renderRecords } = await import('../../output/render.js');
  await renderRecords(ctx, rows, { columns, fields: profilesList.fields });
}

export const area: AreaModule = {
  commands: [login, status, token, refresh, logout, profilesList, profilesUse, profilesRemove],
  groups: { 'auth profiles': 'List, select and remove stored profiles' },
};
