import undici from 'undici';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

/** undici with a keep-alive pool: the transport for long runs (import, export, api --paginate). */
export function undiciTransport(connections = 16): Transport {
  const { Agent, request } = undici;
  const agent = new Agent({ keepAliveTimeout: 4_000, connections });
  return {
    async request(url: string, init: TransportRequest): Promise<TransportResponse> {
      const streamed = typeof init.body === 'object' ? init.body : undefined;
      const res = await request(url, {
        method: init.method as 'GET',
        headers: streamed ? { ...init.headers, 'content-type': streamed.contentType, 'content-length': String(streamed.length) } : init.headers,
        body: streamed ? streamed.open() : (init.body as string | undefined),
        dispatcher: agent,
        headersTimeout: init.timeoutMs,
        bodyTimeout: init.timeoutMs,
      });
      if (init.sink && res.statusCode >= 200 && res.statusCode < 300) {
        // A download: bytes go straight to the sink, never held in memory.
        const { pipeline } = await import('node:stream/promises');
        await pipeline(res.body, init.sink.open(res.headers as TransportResponse['headers']) as import('node:stream').Writable);
        return { status: res.statusCode, headers: res.headers as TransportResponse['headers'], text: '' };
      }
      return { status: res.statusCode, headers: res.headers as TransportResponse['headers'], text: await res.body.text() };
    },
    close: () => agent.close(),
  };
}
