// Whether a subscription URL may receive deliveries. The interface: the URL must be publicly reachable
// and must not redirect. So a host in a private or link-local range, or a name that does not resolve
// (or resolves into such a range), is refused. Loopback stays allowed: a local listener (`crmctl
// webhooks listen`) receives the sandbox's deliveries (docs/interface-deviations.md). Redirects are
// checked at delivery time (a 3xx answer is a failed delivery, see delivery.ts).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

const v4 = (a: string) => a.split('.').map(Number);

/** 127/8, ::1 and the "this host" address the sandbox's own checks treat as loopback. */
export function isLoopback(addr: string): boolean {
  const a = unmapped(addr);
  if (isIP(a) === 4) return v4(a)[0] === 127 || a === '0.0.0.0';
  return a === '::1';
}

/** 10/8, 172.16/12, 192.168/16, 169.254/16 (link-local), 100.64/10 (shared), fc00::/7, fe80::/10. */
export function isPrivate(addr: string): boolean {
  const a = unmapped(addr);
  if (isIP(a) === 4) {
    const [x, y] = v4(a) as [number, number];
    return x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 169 && y === 254) || (x === 100 && y >= 64 && y <= 127);
  }
  if (isIP(a) === 6) return /^f[cd]/i.test(a) || /^fe[89ab]/i.test(a);
  return false;
}

/** ::ffff:10.0.0.1 (and its hex form ::ffff:a00:1, as URL writes it) is 10.0.0.1. */
export function unmapped(addr: string): string {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(addr);
  if (!hex) return addr;
  const hi = parseInt(hex[1]!, 16), lo = parseInt(hex[2]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

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

/** Why a delivery target is refused, or null when it may receive deliveries. */
export async function unreachableReason(url: URL): Promise<string | null> {
  const addrs = await addressesOf(url.hostname);
  if (!addrs.length) return 'the host name does not resolve';
  if (addrs.every(isLoopback)) return null;
  if (addrs.some((a) => isPrivate(a) || isLoopback(a))) return 'the host is in a private address range';
  return null;
}
