import http from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

/**
 * node:http(s) with keep-alive agents. Costs nothing to load (the modules are part of Node), so a
 * one-shot command like `crmctl leads list` starts fast; see docs/architecture.md for the numbers.
 */
export function nodeTransport(maxSockets = 16): Transport {
  // node:https (and TLS under it) loads on the first https request: a loopback sandbox never pays for it.
  const plain = new http.Agent({ keepAlive: true, maxSockets });
  let secure: { mod: typeof import('node:https'); agent: HttpsAgent } | undefined;
  return {
    async request(url: string, init: TransportRequest): Promise<TransportResponse> {
      const u = new URL(url);
      if (u.protocol === 'https:' && !secure) {
        const mod = (await import('node:https')).default;
        secure = { mod, agent: new mod.Agent({ keepAlive: true, maxSockets }) };
      }
      const mod = u.protocol === 'https:' ? secure!.mod : http;
      const agent = u.protocol === 'https:' ? secure!.agent : plain;
      return new Promise((resolve, reject) => {
        const headers: Record<string, string | number> = { ...init.headers };
        const streamed = typeof init.body === 'object' ? init.body : undefined;
        if (streamed) {
          headers['content-type'] = streamed.contentType;
          headers['content-length'] = streamed.length;
        } else if (typeof init.body === 'string') headers['content-length'] = Buffer.byteLength(init.body);
        const req = mod.request(u, { method: init.method, headers, agent }, (res) => {
          const status = res.statusCode ?? 0;
          if (init.sink && status >= 200 && status < 300) {
            // A download: bytes go straight to the sink, never held in memory.
            let out: NodeJS.WritableStream;
            try {
              out = init.sink.open(res.headers);
            } catch (err) {
              res.destroy();
              reject(err);
              return;
            }
            out.on('error', (err) => {
              res.destroy();
              reject(err);
            });
            res.on('error', reject);
            res.pipe(out as NodeJS.WritableStream & import('node:stream').Writable);
            out.on('finish', () => resolve({ status, headers: res.headers, text: '' }));
            return;
          }
          // Decode as it arrives: the page lives as a V8 string, not as Buffers in malloc'd memory,
          // which keeps the RSS of a long export flat (it is collected with the rest of the heap).
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
          res.on('error', reject);
        });
        req.setTimeout(init.timeoutMs, () => req.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' })));
        req.on('error', reject);
        if (streamed) {
          const src = streamed.open();
          src.on('error', (err) => req.destroy(err));
          src.pipe(req);
        } else req.end(typeof init.body === 'string' ? init.body : undefined);
      });
    },
    async close() {
      plain.destroy();
      secure?.agent.destroy();
    },
  };
}
