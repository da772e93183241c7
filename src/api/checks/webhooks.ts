import { isIP } from 'node:net';
import type { CheckReader } from '../entry-types.js';
import { ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../entry-types.js';

type Kind = 'public' | 'loopback' | 'private' | 'unspecified' | 'reserved';

const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
/** A host name as written and as meant: lower case, brackets and a trailing dot dropped. */
const bare = (hostname: string) => hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');

function v4Kind(a: string): Kind {
  const [x, y] = a.split('.').map(Number) as [number, number];
  if (x === 0) return 'unspecified';
  if (x === 127) return 'loopback';
  if (x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 169 && y === 254) || (x === 100 && y >= 64 && y <= 127)) return 'private';
  return x >= 224 ? 'reserved' : 'public';
}

/** The eight 16-bit words of an IPv6 address (URL has written it canonically, a dotted tail allowed). */
function v6Words(a: string): number[] | undefined {
  let s = a;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (quad) {
    const [p, q, r, t] = quad.slice(1).map(Number) as [number, number, number, number];
    s = `${s.slice(0, quad.index)}${((p << 8) | q).toString(16)}:${((r << 8) | t).toString(16)}`;
  }
  const [head, tail] = s.split('::');
  const part = (x: string | undefined) => (x ? x.split(':').map((h) => parseInt(h, 16)) : []);
  const h = part(head), t = part(tail);
  const words = [...h, ...Array<number>(tail === undefined ? 0 : Math.max(0, 8 - h.length - t.length)).fill(0), ...t];
  return words.length === 8 ? words : undefined;
}

/**
 * What an address literal is (names are left to the service, which resolves them): IPv6 forms that carry
 * an IPv4 address (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d) are judged by it,
 * so no spelling of a private, unspecified or loopback address slips through.
 */
export function addressKind(hostname: string): Kind | 'name' {
  const h = bare(hostname);
  if (isIP(h) === 4) return v4Kind(h);
  const w = isIP(h) === 6 ? v6Words(h) : undefined;
  if (!w) return 'name';
  const zeroUpTo = (n: number) => w.slice(0, n).every((x) => x === 0);
  const v4 = () => v4Kind([w[6]! >> 8, w[6]! & 255, w[7]! >> 8, w[7]! & 255].join('.'));
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && w[7] === 1) return 'loopback';
  if (zeroUpTo(5) && w[5] === 0xffff) return v4();
  if (zeroUpTo(6)) return 'reserved';
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) return v4() === 'public' ? 'public' : 'reserved';
  if ((w[0]! & 0xfe00) === 0xfc00 || (w[0]! & 0xffc0) === 0xfe80) return 'private';
  return (w[0]! & 0xff00) === 0xff00 ? 'reserved' : 'public';
}

/** Whether a host names this machine: a loopback or unspecified address in any spelling, or `localhost`. */
const isLocal = (hostname: string) => bare(hostname) === 'localhost' || ['loopback', 'unspecified'].includes(addressKind(hostname));

/** True when `target` is the API address itself: the same host (or both this machine, in any spelling) and the same port. */
export function pointsAt(target: URL, api: URL): boolean {
  const sameHost = bare(target.hostname) === bare(api.hostname) || (isLocal(target.hostname) && isLocal(api.hostname));
  return sameHost && port(target) === port(api);
}

/**
 * A webhook must not call the service itself: refuse the profile's API address (and the vendor's
 * API hosts) before sending, and addresses that are not public (loopback stays allowed for a local
 * receiver, as the sandbox allows it). Only reads the credentials' base URL; sends nothing.
 */
export async function webhookPreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const raw = (input.body as { subscription_url?: string } | undefined)?.subscription_url;
  if (!raw) return;
  const target = new URL(raw);
  // A reader without credentials (none today) leaves the rule to the vendor-host test below.
  const baseUrl = ctx.credentials ? (await (await ctx.credentials()).get()).baseUrl : 'http://invalid';
  const api = new URL(baseUrl);
  if (pointsAt(target, api) || /(^|\.)pipedrive\.com$/i.test(bare(target.hostname))) {
    throw new ValidationError([{ field: '--url', rule: `must not be an endpoint of the service (${target.host} is the API address ${api.origin}); give the URL of your receiver` }]);
  }
  const kind = addressKind(target.hostname);
  if (kind === 'private' || kind === 'unspecified' || kind === 'reserved') {
    const what = kind === 'private' ? 'a private address' : kind === 'unspecified' ? 'an unspecified address' : 'a reserved address';
    throw new ValidationError([{ field: '--url', rule: `must be publicly reachable (${target.hostname} is ${what}); loopback is allowed for a local receiver` }]);
  }
}
