import undici from 'undici';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

/** undici with a keep-alive pool: the transport for long runs (import, export, api --paginate). */
export function undiciTransport(connections = 16): Transport {
  const { Agent, request } = undici;
  const agent = new Agent({ keepAliveTimeout: 4_000, connections });
  return {
    async request(url: string, init: TransportRequest): Promise<TransportResponse> {
      const res = await request(url, {
        method: init.method as 'GET',
        headers: init.headers,
        body: init.body,
        dispatcher: agent,
        headersTimeout: init.timeoutMs,
        bodyTimeout: init.timeoutMs,
      });
      return { status: res.statusCode, headers: res.headers as TransportResponse['headers'], text: await res.body.text() };
    },
    close: () => agent.close(),
  };
}
