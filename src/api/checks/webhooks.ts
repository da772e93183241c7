import type { Reader } from '../prepare.js';
import { ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../../input/operation-input.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '0.0.0.0']);
const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');

/** True when `target` is the API address itself (same host, or both loopback, and same port). */
export function pointsAt(target: URL, api: URL): boolean {
  const sameHost = target.hostname === api.hostname || (LOOPBACK.has(target.hostname) && LOOPBACK.has(api.hostname));
  return sameHost && port(target) === port(api);
}

/**
 * A webhook must not call the service itself: refuse the profile's API address (and the vendor's
 * API hosts) before sending. Only reads the credentials' base URL; sends nothing.
 */
export async function webhookPreflight(ctx: Reader, input: ValidInput): Promise<void> {
  const raw = (input.body as { subscription_url?: string } | undefined)?.subscription_url;
  if (!raw) return;
  const target = new URL(raw);
  // A reader without credentials (none today) leaves the rule to the vendor-host test below.
  const baseUrl = ctx.credentials ? (await (await ctx.credentials()).get()).baseUrl : 'http://invalid';
  const api = new URL(baseUrl);
  if (pointsAt(target, api) || /(^|\.)pipedrive\.com$/i.test(target.hostname)) {
    throw new ValidationError([{ field: '--url', rule: `must not be an endpoint of the service (${target.host} is the API address ${api.origin}); give the URL of your receiver` }]);
  }
}
