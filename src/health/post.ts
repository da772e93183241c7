import { CliError, NetworkError, ValidationError } from '../core/errors.js';
import { networkReason, rawRequest } from '../http/raw.js';
import type { Finding } from './types.js';

/**
 * `watch --post URL`: new findings sent as one JSON POST to an incoming webhook (Slack and Teams take
 * `{text}`; `findings` is there for anything else). The URL is held to the rules of every address
 * crmctl sends to: https, or plain http to this machine only (a local relay, the tests); no user or
 * password in it; never the API address. Nothing of the login goes with it: no Authorization header,
 * no cookie, no token in the body. A chat webhook's path is its secret, so messages name the host only.
 */

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/i;

export function checkPostUrl(raw: string, apiBaseUrl: string | undefined): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ValidationError([{ field: '--post', rule: 'must be a full https URL of an incoming webhook, e.g. https://hooks.slack.com/services/…' }]);
  }
  if (url.username || url.password) throw new ValidationError([{ field: '--post', rule: `must not carry a user name or password (${url.protocol}//${url.host})` }]);
  const loopback = LOOPBACK.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ValidationError([{ field: '--post', rule: `must be https (plain http only to this machine: 127.0.0.1, localhost, [::1]); got ${url.protocol}//${url.host}` }]);
  }
  if (apiBaseUrl) {
    const api = new URL(apiBaseUrl);
    if (api.origin === url.origin) throw new ValidationError([{ field: '--post', rule: `must not be the API address ${api.origin}: findings go to a chat or a receiver of yours, never to the service` }]);
  }
  return url;
}

/** The message: a line of totals and one line per finding (at most 20; the rest counted). */
export function postText(headline: string, findings: readonly Finding[]): string {
  const lines = findings.slice(0, 20).map((f) => `• [${f.severity}] ${f.check} ${f.kind} ${f.ids.join(',')} ${f.name}: ${f.message}`);
  if (findings.length > 20) lines.push(`… and ${findings.length - 20} more (crmctl watch --json lists them all)`);
  return [headline, ...lines].join('\n');
}

export async function postFindings(url: URL, body: { text: string; findings: readonly Finding[] }, transport?: string): Promise<void> {
  const where = `${url.protocol}//${url.host}`;
  let status: number;
  try {
    // rawRequest: no auth, no retries, no redirects followed (a 3xx is an answer like any other).
    ({ status } = await rawRequest(url.toString(), { method: 'POST', headers: { 'content-type': 'application/json', accept: '*/*' }, body: JSON.stringify(body), timeoutMs: 15_000, transport }));
  } catch (err) {
    throw new NetworkError(`--post: no answer from ${where} (${networkReason(err)}); the findings stay new for the next run.`);
  }
  if (status < 200 || status >= 300) {
    throw new CliError(`--post: ${where} answered ${status}${status >= 300 && status < 400 ? ' (a redirect; not followed)' : ''}; the findings stay new for the next run.`);
  }
}
