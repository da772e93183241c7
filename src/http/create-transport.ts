import type { Transport } from './transport.js';
import { nodeTransport } from './transport-node.js';

export type TransportName = 'node' | 'undici';

/**
 * Which wire to use. node:http is the default: it is built into Node, so a one-shot command pays
 * nothing to load it, where undici costs ~100 ms of module loading plus ~100 ms compiling its WASM
 * HTTP parser on the first request (measured; docs/architecture.md). Long bulk runs may choose undici
 * (`CRMCTL_HTTP_TRANSPORT=undici`) — the client behaves the same on either. node:http is imported
 * with the client (not on demand): every command that builds a client sends with it, and a separate
 * import() is a file of its own at start-up.
 */
export async function createTransport(name: string | undefined): Promise<Transport> {
  if (name === 'undici') return (await import('./transport-undici.js')).undiciTransport();
  return nodeTransport();
}
