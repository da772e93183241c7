import type { CheckReader } from '../entry-types.js';
import { ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../entry-types.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '0.0.0.0']);
const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');

/**
 * An address in a private or link-local range (10/8, 172.16/12, 192.168/16, 169.254/16, 100.64/10,
 * fc00::/7, fe80::/10): the service refuses such receivers (the URL must be publicly reachable), so
 * the CLI says so before sending. Names are left to the service (it resolves them).
 */
export function isPrivateAddress(hostname: string): boolean {
  let h = hostname.replace(/^\[|\]$/g, '').replace(/^::ffff:(?=\d+\.)/i, '');
  // URL writes a mapped IPv4 address in hex: ::ffff:a00:1 is 10.0.0.1.
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(h);
  if (hex) { const hi = parseInt(hex[1]!, 16), lo = parseInt(hex[2]!, 16); h = [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.'); }
  const m = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(h);
  if (m) {
    const x = Number(m[1]), y = Number(m[2]);
    return x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 169 && y === 254) || (x === 100 && y >= 64 && y <= 127);
  }
  return h.includes(':') && (/^f[cd]/i.test(h) || /^fe[89ab]/i.test(h));
}

/** True when `target` is the API address itself (same host, or both loopback, and same port). */
export function pointsAt(target: URL, api: URL): boolean {
  const sameHost = target.hostname === api.hostname || (LOOPBACK.has(target.hostname) && LOOPBACK.has(api.hostname));
  return sameHost && port(target) === port(api);
}

/**
 * A webhook must not call the service itself: refuse the profile's API address (and the vendor's
 * API hosts) before sending. Only reads the credentials' base URL; sends nothing.
 */
export async function webhookPreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const raw = (input.body as { subscription_url?: string } | undefined)?.subscription_url;
  if (!raw) return;
  const target = new URL(raw);
  // A reader without credentials (none today) leaves the rule to the vendor-host test below.
  const baseUrl = ctx.credentials ? (await (await ctx.credentials()).get()).baseUrl : 'http://invalid';
  const api = new URL(baseUrl);
  if (pointsAt(target, api) || /(^|\.)pipedrive\.com$/i.test(target.hostname)) {
    throw new ValidationError([{ field: '--url', rule: `must not be an endpoint of the service (${target.host} is the API address ${api.origin}); give the URL of your receiver` }]);
  }
  if (isPrivateAddress(target.hostname)) {
    throw new ValidationError([{ field: '--url', rule: `must be publicly reachable (${target.hostname} is a private address); loopback is allowed for a local receiver` }]);
  }
}
