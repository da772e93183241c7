import { userOps } from '../../api/operations/users.js';
import { callbackUri, joinUrl } from '../../auth/oauth.js';
import type { Context } from '../../core/context.js';
import { CliError } from '../../core/errors.js';
import { budgetLine, budgetView, dailyBudgetOf, describeReset, tokens } from '../../http/daily-budget.js';
import { rawRequest } from '../../http/raw.js';
import { fail, pass, skip, type Finding } from './finding.js';
import { human, type Setup } from './local.js';

/** Each probe gives up after this long: a doctor that hangs is no help. */
const TIMEOUT_MS = 5_000;
/** Beyond this the token expiry arithmetic (60 s early refresh) and OAuth codes start to misbehave. */
export const MAX_SKEW_SEC = 30;

interface Probe {
  status: number;
  date: string | undefined;
  ms: number;
  /** Local time half-way through the request: what the service's Date header is compared with. */
  midpoint: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

async function probe(url: string, headers: Record<string, string> = {}): Promise<Probe> {
  const t0 = Date.now();
  const res = await rawRequest(url, { method: 'GET', headers: { accept: 'application/json', ...headers }, timeoutMs: TIMEOUT_MS });
  const text = res.text;
  const t1 = Date.now();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML pages (the consent page) stay text.
  }
  const date = res.headers.date;
  return { status: res.status, date: Array.isArray(date) ? date[0] : date, ms: t1 - t0, midpoint: Math.round((t0 + t1) / 2), body, headers: res.headers };
}

function networkReason(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string }; name?: string; message?: string };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || e?.code === 'ETIMEDOUT') return `no answer within ${TIMEOUT_MS / 1000} s`;
  return e?.code ?? e?.cause?.code ?? e?.message ?? String(err);
}

export interface ApiResult {
  reach: Finding;
  skew: Finding;
  /** What is left of the daily token budget (from the same answer's headers). */
  budget: Finding;
  /** Scopes the credentials report (profile or token response), when known. */
  scopes?: string[];
}

/**
 * Calls the users table's `me` with the credentials the next command would use: shows that the API
 * address answers, that the token is accepted, and gives the service's Date header for the clock check.
 */
export async function checkApi(ctx: Context, setup: Setup): Promise<ApiResult> {
  const title = 'API reachable';
  const skewTitle = 'Clock skew';
  let creds: { baseUrl: string; headers: Record<string, string>; scopes?: string[] };
  try {
    creds = await (await ctx.credentials()).get();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const fix = err instanceof CliError && err.hint ? err.hint : `crmctl auth login --profile ${setup.profileName}`;
    return { reach: fail('api-reachable', title, `no usable credentials: ${message}`, fix), skew: skip('clock-skew', skewTitle, 'needs an answer from the service'), budget: noBudget };
  }
  const url = joinUrl(creds.baseUrl, userOps.me.path);
  let p: Probe;
  try {
    p = await probe(url, creds.headers);
  } catch (err) {
    return {
      reach: fail('api-reachable', title, `cannot reach ${creds.baseUrl}: ${networkReason(err)}`, `Check the API address (CRMCTL_API_DOMAIN or the profile's apiDomain), your network and proxy; then run crmctl doctor again`),
      skew: skip('clock-skew', skewTitle, 'needs an answer from the service'),
      budget: noBudget,
      scopes: creds.scopes,
    };
  }
  const skew = skewFinding(p);
  const budget = budgetFinding(p);
  const said = typeof p.body === 'object' && p.body && typeof (p.body as { error?: unknown }).error === 'string' ? `: ${(p.body as { error: string }).error}` : '';
  if (p.status === 401) {
    const fix = setup.envOverride ? `Replace ${setup.envOverride} with a valid token (or unset it and run crmctl auth login --profile ${setup.profileName})` : `crmctl auth login --profile ${setup.profileName}`;
    return { reach: fail('api-reachable', title, `${creds.baseUrl} answers, but refuses the token (401${said})`, fix), skew, budget, scopes: creds.scopes };
  }
  if (p.status >= 500) return { reach: fail('api-reachable', title, `${creds.baseUrl} answers ${p.status}${said}`, 'The service has a problem; try again later'), skew, budget, scopes: creds.scopes };
  const user = (p.body as { data?: { name?: string; email?: string } })?.data;
  const who = p.status < 300 && user ? `; signed in as ${user.name ?? user.email}` : p.status === 403 ? '; the token may not read the user (403)' : '';
  return { reach: pass('api-reachable', title, `${creds.baseUrl} answered in ${p.ms} ms${who}`), skew, budget, scopes: creds.scopes };
}

const noBudget = skip('daily-budget', 'Daily budget', 'needs an answer from the service');

/** The daily token budget from the answer's headers: a spent one fails (every command would get 429 until midnight). */
function budgetFinding(p: Probe): Finding {
  const title = 'Daily budget';
  const d = dailyBudgetOf(p.headers, p.midpoint);
  if (!d) return skip('daily-budget', title, 'the service sent no daily budget headers');
  const server = p.date ? Date.parse(p.date) : NaN;
  const now = Number.isNaN(server) ? p.midpoint : server;
  const v = budgetView(d, now);
  if (v.remaining === 0) return fail('daily-budget', title, `spent: 0 of ${tokens(v.limit)} tokens left; every request is refused until ${describeReset(now)}`, 'Wait for the reset (crmctl budget shows what is left), or ask the account owner about a larger plan or a top-up');
  return pass('daily-budget', title, budgetLine(v, now));
}

function skewFinding(p: Probe): Finding {
  const title = 'Clock skew';
  const server = p.date ? Date.parse(p.date) : NaN;
  if (Number.isNaN(server)) return skip('clock-skew', title, 'the service sent no Date header');
  // The Date header has 1 s resolution: allow for it before calling it skew.
  const raw = (p.midpoint - server) / 1000;
  const secs = Math.abs(raw) <= 1 ? 0 : Math.round(raw);
  const where = secs > 0 ? 'ahead of' : 'behind';
  if (Math.abs(secs) > MAX_SKEW_SEC) {
    return fail('clock-skew', title, `this machine's clock is ${human(Math.abs(secs))} ${where} the service (Date: ${p.date}); token expiry and refresh timing go wrong`, 'Synchronise the clock, e.g. sudo timedatectl set-ntp true (Linux) or sntp -sS time.apple.com (macOS)');
  }
  return pass('clock-skew', title, secs === 0 ? 'in step with the service (within 1 s)' : `${Math.abs(secs)} s ${where} the service (allowed: ${MAX_SKEW_SEC} s)`);
}

/** The OAuth server answers its authorize page for this client and callback (a 4xx there means login cannot work). */
export async function checkAuthServer(env: NodeJS.ProcessEnv, setup: Setup): Promise<Finding> {
  const title = 'Auth server reachable';
  const authUrl = env.CRMCTL_AUTH_URL ?? setup.profile?.authUrl;
  if (!authUrl) {
    return setup.envOverride ? skip('auth-reachable', title, `no auth URL configured (${setup.envOverride} needs none)`) : skip('auth-reachable', title, 'no auth URL configured yet');
  }
  const clientId = env.CRMCTL_CLIENT_ID ?? setup.profile?.clientId;
  const redirect = callbackUri(setup.profile?.callbackPort ?? 8250);
  const u = new URL(joinUrl(authUrl, '/oauth/authorize'));
  if (clientId) {
    u.searchParams.set('client_id', clientId);
    u.searchParams.set('redirect_uri', redirect);
  }
  let p: Probe;
  try {
    p = await probe(u.toString(), { accept: 'text/html' });
  } catch (err) {
    return fail('auth-reachable', title, `cannot reach ${authUrl}: ${networkReason(err)}`, 'Check the auth URL (crmctl auth status shows it; env CRMCTL_AUTH_URL overrides), your network and proxy');
  }
  if (p.status < 400) return pass('auth-reachable', title, `${authUrl} answered in ${p.ms} ms${clientId ? ` and knows client ${clientId} with callback ${redirect}` : ''}`);
  if (p.status < 500 && clientId) {
    return fail('auth-reachable', title, `${authUrl} refuses client ${clientId} or callback ${redirect} (${p.status})`, `Register ${redirect} as the app's callback, or log in with the registered port: crmctl auth login --profile ${setup.profileName} --callback-port N`);
  }
  if (p.status < 500) return pass('auth-reachable', title, `${authUrl} answered in ${p.ms} ms`);
  return fail('auth-reachable', title, `${authUrl} answers ${p.status}`, 'The OAuth server has a problem; try again later');
}
