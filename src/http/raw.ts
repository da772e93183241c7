import { createTransport } from './create-transport.js';
import type { TransportResponse } from './transport.js';

export interface RawRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  /** CRMCTL_HTTP_TRANSPORT: the same wire HttpClient uses. */
  transport?: string;
}

/**
 * One request to a full URL without the API's auth and retries: the OAuth token endpoint, sandbox
 * control endpoints, doctor's probes. It goes over the same transport as HttpClient (so the bundle has
 * one HTTP path to get right) and throws the transport's own error, with its code, when nothing answered.
 */
export async function rawRequest(url: string, init: RawRequest): Promise<TransportResponse> {
  const transport = await createTransport(init.transport);
  try {
    return await transport.request(url, { method: init.method, headers: { 'user-agent': 'crmctl', ...init.headers }, body: init.body, timeoutMs: init.timeoutMs ?? 30_000 });
  } finally {
    await transport.close();
  }
}

/** What went wrong on the wire, in a few words: the error code (ECONNREFUSED), or the message. */
export function networkReason(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string }; message?: string };
  return e?.code ?? e?.cause?.code ?? e?.message ?? String(err);
}
