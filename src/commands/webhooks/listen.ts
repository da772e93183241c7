import { writeOut } from '../../output/render.js';
import { formatFor } from '../../output/format.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Context } from '../../core/context.js';
import { defineCommand } from '../../core/define-command.js';
import { CliError, ValidationError } from '../../core/errors.js';
import { flag, type FlagValues } from '../../core/flags.js';
import { readAll } from '../../core/stdin.js';
import { summarize, summaryLine } from './listen-format.js';
import { ForwardQueue } from './forward-queue.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_CONCURRENT, DEFAULT_MAX_FORWARD_BYTES, DEFAULT_MAX_FORWARD_QUEUE, readBodyCapped, refuse } from './listen-limits.js';

interface ListenOptions {
  port: number;
  user?: string;
  password?: string;
  forward?: URL;
  maxEvents?: number;
  timeoutSec?: number;
  maxBodyBytes: number;
  maxConcurrent: number;
  maxForwardQueue: number;
  maxForwardBytes: number;
}

async function parseOptions(ctx: Context, opts: FlagValues<typeof LISTEN_FLAGS>): Promise<ListenOptions> {
  const out: ListenOptions = { port: opts.port, maxBodyBytes: opts.maxBody, maxConcurrent: opts.maxConcurrent, maxForwardQueue: opts.maxForwardQueue, maxForwardBytes: opts.maxForwardBytes };
  if (opts.maxEvents !== undefined) out.maxEvents = opts.maxEvents;
  if (opts.timeout !== undefined) out.timeoutSec = opts.timeout;
  if (opts.forward !== undefined) {
    try {
      out.forward = new URL(opts.forward);
      if (!/^https?:$/.test(out.forward.protocol)) throw new Error('scheme');
    } catch {
      throw new ValidationError([{ field: '--forward', rule: 'must be a full http(s) URL, e.g. http://127.0.0.1:3000/hooks' }]);
    }
  }
  if (opts.passwordStdin && opts.user === undefined) throw new ValidationError([{ field: '--user', rule: 'is required with --password-stdin' }]);
  if (opts.user !== undefined) {
    const user = opts.user;
    if (!user || user.includes(':')) throw new ValidationError([{ field: '--user', rule: 'must be a non-empty name without ":"' }]);
    const password = opts.passwordStdin ? (await readAll(ctx.io.stdin)).replace(/\r?\n$/, '') : ctx.env.CRMCTL_WEBHOOK_PASSWORD;
    if (!password) throw new ValidationError([{ field: '--password-stdin', rule: 'a password is needed with --user: pipe it to --password-stdin or set CRMCTL_WEBHOOK_PASSWORD' }]);
    out.user = user;
    out.password = password;
  }
  return out;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function authorized(req: IncomingMessage, o: ListenOptions): boolean {
  if (o.user === undefined) return true;
  const m = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (!m) return false;
  return sameSecret(Buffer.from(m[1]!, 'base64').toString('utf8'), `${o.user}:${o.password}`);
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Receives webhook deliveries on 127.0.0.1 until Ctrl-C, --max-events or --timeout. */
export async function listen(ctx: Context, o: ListenOptions): Promise<void> {
  const pretty = formatFor(ctx, 'events') === 'text';
  let received = 0;
  let finish!: (err?: Error) => void;
  const done = new Promise<void>((resolve, reject) => { finish = (err) => (err ? reject(err) : resolve()); });

  const target = o.forward;
  const queue = target
    ? new ForwardQueue((body, type) => forward(ctx, target, body, type), { maxCount: o.maxForwardQueue, maxBytes: o.maxForwardBytes }, (e) =>
        ctx.warn(
          e.full
            ? `forward queue full (${e.count} deliveries, ${e.bytes} bytes waiting for ${target.href}; --max-forward-queue ${o.maxForwardQueue}, --max-forward-bytes ${o.maxForwardBytes}): answering 503 until it has room`
            : `forward queue has room again; ${e.refused} deliver${e.refused === 1 ? 'y was' : 'ies were'} answered 503 meanwhile (the service sends them again)`,
        ),
      )
    : undefined;

  let active = 0;
  const server = createServer((req, res) => {
    if (active >= o.maxConcurrent) {
      ctx.warn(`refused a delivery: ${active} already in progress (--max-concurrent ${o.maxConcurrent})`);
      return refuse(res, 503, { error: `busy: at most ${o.maxConcurrent} deliveries at once (--max-concurrent)` }, { 'retry-after': '1' });
    }
    active++;
    res.once('close', () => active--);
    void (async () => {
      if (req.method === 'GET' || req.method === 'HEAD') return reply(res, 200, { listening: true, received });
      if (req.method !== 'POST') return reply(res, 405, { error: 'only POST' }, { allow: 'GET, POST' });
      if (!authorized(req, o)) {
        ctx.warn(`rejected a delivery with wrong or missing basic auth from ${req.socket.remoteAddress ?? '?'}`);
        return refuse(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Basic realm="crmctl webhooks listen"' });
      }
      const bytes = await readBodyCapped(req, res, o.maxBodyBytes);
      if (!bytes) {
        ctx.warn(`refused a delivery larger than ${o.maxBodyBytes} bytes (--max-body)`);
        return;
      }
      const text = bytes.toString('utf8');
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch {
        return reply(res, 400, { error: 'body must be JSON' });
      }
      if (o.maxEvents !== undefined && received >= o.maxEvents) return reply(res, 503, { error: 'listener is stopping' });
      // Not taken (not printed, not counted) when it cannot be forwarded: the service delivers it again later.
      if (queue && !queue.offer(text, req.headers['content-type'])) {
        return reply(res, 503, { error: 'busy: the forward queue is full (--max-forward-queue, --max-forward-bytes)' }, { 'retry-after': '10' });
      }
      received++;
      reply(res, 200, { ok: true });
      await writeOut(ctx.io.stdout, pretty ? `${summaryLine(summarize(payload))}\n` : `${JSON.stringify(payload)}\n`);
      if (o.maxEvents !== undefined && received >= o.maxEvents) {
        await queue?.drained();
        finish();
      }
    })().catch((err: unknown) => {
      if (!res.headersSent) reply(res, 500, { error: 'listener failed' });
      ctx.warn(`listener error: ${(err as Error).message}`);
    });
  });
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new CliError(`cannot listen on 127.0.0.1:${o.port}: ${err.code ?? err.message}`, 1, err.code === 'EADDRINUSE' ? 'Pick another --port (or 0 for any free port).' : undefined)));
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : o.port}/`;
  ctx.io.stderr.write(`Listening for webhook deliveries on ${url}${o.user ? ` (basic auth as ${o.user})` : ''}${o.forward ? `, forwarding to ${o.forward.href}` : ''}. Ctrl-C to stop.\n`);

  const onSigint = () => finish();
  process.once('SIGINT', onSigint);
  const timer = o.timeoutSec !== undefined
    ? setTimeout(() => finish(o.maxEvents !== undefined ? new CliError(`timed out after ${o.timeoutSec}s with ${received} of ${o.maxEvents} events`) : undefined), o.timeoutSec * 1000)
    : undefined;
  try {
    await done;
  } finally {
    if (timer) clearTimeout(timer);
    process.off('SIGINT', onSigint);
    const dropped = queue?.stop() ?? 0;
    if (dropped) ctx.warn(`stopped with ${dropped} deliver${dropped === 1 ? 'y' : 'ies'} not forwarded to ${target!.href}`);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    ctx.info(`Stopped after ${received} event${received === 1 ? '' : 's'}.`);
  }
}

async function forward(ctx: Context, target: URL, body: string, contentType: string | undefined): Promise<void> {
  const { networkReason, rawRequest } = await import('../../http/raw.js');
  try {
    const res = await rawRequest(target.href, { method: 'POST', headers: { 'content-type': contentType ?? 'application/json' }, body, timeoutMs: 10_000, transport: ctx.env.CRMCTL_HTTP_TRANSPORT });
    if (res.status >= 200 && res.status < 300) ctx.info(`forwarded to ${target.href}: ${res.status}`);
    else ctx.warn(`forward to ${target.href} answered ${res.status}`);
  } catch (err) {
    ctx.warn(`forward to ${target.href} failed: ${networkReason(err)}`);
  }
}

const LISTEN_FLAGS = {
  port: flag.int({ min: 0, max: 65535, default: 0, description: 'port on 127.0.0.1 (0 = any free port, printed on stderr)' }),
  user: flag.string({ value: 'name', description: 'require this basic-auth user (password from --password-stdin or CRMCTL_WEBHOOK_PASSWORD)' }),
  passwordStdin: flag.bool({ description: 'read the basic-auth password from stdin' }),
  forward: flag.string({ value: 'url', description: 'also POST each payload to this URL (your app under development)' }),
  maxEvents: flag.int({ min: 1, description: 'stop after this many events' }),
  timeout: flag.int({ min: 1, value: 'seconds', description: 'stop after this long (an error if --max-events was not reached)' }),
  maxBody: flag.int({ min: 1, value: 'bytes', default: DEFAULT_MAX_BODY_BYTES, description: 'answer 413 and close the connection for a larger body' }),
  maxConcurrent: flag.int({ min: 1, default: DEFAULT_MAX_CONCURRENT, description: 'answer 503 past this many deliveries at once' }),
  maxForwardQueue: flag.int({ min: 1, default: DEFAULT_MAX_FORWARD_QUEUE, description: 'with --forward: answer 503 past this many deliveries waiting to be forwarded' }),
  maxForwardBytes: flag.int({ min: 1, value: 'bytes', default: DEFAULT_MAX_FORWARD_BYTES, description: 'with --forward: answer 503 past this many payload bytes waiting to be forwarded' }),
};

export const listenCommand = defineCommand({
  path: ['webhooks', 'listen'],
  summary: 'Receive webhook deliveries locally and print each event',
  description: 'Starts a receiver on 127.0.0.1 that answers 200 to each POST and prints the event: a one-line summary on a terminal, the full payload as one JSON line when piped. With --user, deliveries must carry that basic auth (else 401). With --forward, each payload is also POSTed to your app, one at a time in order; while --max-forward-queue deliveries (or --max-forward-bytes) wait for a slow app, further ones are answered 503 and the service sends them again. Register its URL with `crmctl webhooks create` (the sandbox accepts loopback URLs; the real service needs a public URL, e.g. through a tunnel).',
  examples: [
    'crmctl webhooks listen --port 8788',
    'printf %s "$HOOK_SECRET" | crmctl webhooks listen --port 8788 --user crm --password-stdin --max-events 10 > events.ndjson',
    'crmctl webhooks listen --port 8788 --forward http://127.0.0.1:3000/hooks',
  ],
  flags: LISTEN_FLAGS,
  async run(ctx, { flags }) {
    await listen(ctx, await parseOptions(ctx, flags));
  },
});
