// Whether a subscription URL may receive deliveries. The interface: the URL must be publicly reachable,
// must not redirect, and must not be an endpoint of the service. So a host in a private, link-local,
// unspecified or reserved range, or a name that does not resolve (or resolves into such a range), is
// refused, in every spelling of the address (IPv4-mapped and -compatible IPv6, NAT64, decimal forms
// that URL normalises). Loopback stays allowed so a local listener (`crmctl webhooks listen`) receives
// the sandbox's deliveries (docs/interface-deviations.md), but never the sandbox's own port: a webhook
// there would call the sandbox's API or control endpoints (POST /__sandbox/reset) with every event.
// Redirects are checked at delivery time (a 3xx answer is a failed delivery, see delivery.ts).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** What an address is, as far as webhook delivery cares. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'unspecified' | 'reserved';

function v4Kind(a: string): AddressKind {
  const [x, y] = a.split('.').map(Number) as [number, number];
  if (x === 0) return 'unspecified'; // 0/8, "this network": 0.0.0.0 reaches the local host
  if (x === 127) return 'loopback';
  if (x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 169 && y === 254) || (x === 100 && y >= 64 && y <= 127)) return 'private';
  if (x >= 224) return 'reserved'; // multicast 224/4, reserved 240/4, broadcast
  return 'public';
}

/** The eight 16-bit words of an IPv6 address (a trailing dotted quad allowed), or undefined. */
function v6Words(a: string): number[] | undefined {
  let s = a.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (quad) {
    const [p, q, r, t] = quad.slice(1).map(Number) as [number, number, number, number];
    s = `${s.slice(0, quad.index)}${((p << 8) | q).toString(16)}:${((r << 8) | t).toString(16)}`;
  }
  const [head, tail, more] = s.split('::');
  if (more !== undefined) return undefined;
  const part = (x: string | undefined) => (x ? x.split(':').map((h) => parseInt(h, 16)) : []);
  const h = part(head), t = part(tail);
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const words = [...h, ...Array<number>(Math.max(0, fill)).fill(0), ...t];
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : undefined;
}

const embedded = (w: number[]) => [w[6]! >> 8, w[6]! & 255, w[7]! >> 8, w[7]! & 255].join('.');

/** The kind of an IP address; IPv6 forms that carry an IPv4 address are judged by that address. */
export function addressKind(addr: string): AddressKind {
  const a = addr.replace(/^\[|\]$/g, '');
  if (isIP(a) === 4) return v4Kind(a);
  const w = isIP(a) === 6 ? v6Words(a) : undefined;
  if (!w) return 'reserved';
  const zeroUpTo = (n: number) => w.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && w[7] === 1) return 'loopback';
  if (zeroUpTo(5) && w[5] === 0xffff) return v4Kind(embedded(w)); // IPv4-mapped ::ffff:a.b.c.d
  if (zeroUpTo(6)) return 'reserved'; // IPv4-compatible ::a.b.c.d (deprecated, never routed)
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) return v4Kind(embedded(w)) === 'public' ? 'public' : 'reserved'; // NAT64
  if ((w[0]! & 0xfe00) === 0xfc00 || (w[0]! & 0xffc0) === 0xfe80) return 'private'; // fc00::/7, fe80::/10
  if ((w[0]! & 0xff00) === 0xff00) return 'reserved'; // multicast
  return 'public';
}

/** Whether an address is loopback (127/8, ::1, and their IPv4-mapped forms). */
export const isLoopback = (addr: string): boolean => addressKind(addr) === 'loopback';

/**
 * The addresses a host names: itself when it is an address, else the system resolver's answer
 * (dns.lookup: /etc/hosts and the configured resolver; `.invalid` fails at once). Empty when the name
 * does not resolve.
 */
export async function addressesOf(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return [host];
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((r) => r.address);
  } catch {
    return [];
  }
}

const portOf = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');

/**
 * Why a URL may not receive deliveries, or null when it may. `self` is the sandbox's own base URL:
 * any loopback spelling of its port is the sandbox itself. Checked when a webhook is created and again
 * before each delivery (a name may resolve elsewhere by then).
 */
export async function unreachableReason(url: URL, self: string): Promise<string | null> {
  const addrs = await addressesOf(url.hostname);
  if (!addrs.length) return 'the host name does not resolve';
  const kinds = new Set(addrs.map(addressKind));
  if (kinds.has('unspecified')) return 'the host is an unspecified address';
  if (kinds.has('private') || kinds.has('reserved')) return 'the host is in a private or reserved address range';
  if (kinds.has('loopback') && kinds.has('public')) return 'the host names loopback and public addresses';
  const own = new URL(self);
  if (portOf(url) === portOf(own)) {
    const ownAddrs = await addressesOf(own.hostname);
    if (kinds.has('loopback') || addrs.some((a) => ownAddrs.includes(a))) return 'the URL is the sandbox itself';
  }
  return null;
}

/** Whether every address the URL's host names is loopback: the sandbox delivers only there. */
export async function onLoopback(url: URL): Promise<boolean> {
  const addrs = await addressesOf(url.hostname);
  return addrs.length > 0 && addrs.every(isLoopback);
}
