import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Writable } from 'node:stream';
import { AuthError, CancelledError, CliError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { authorizeUrl, callbackUri } from './oauth.js';
import type { LineReader } from './lines.js';

export interface AuthorizationOptions {
  authUrl: string;
  clientId: string;
  port: number;
  /** Open the authorize URL in the browser. */
  openBrowser: boolean;
  timeoutMs: number;
  /** With --no-browser: pasted redirect URLs (or bare codes), one per line. */
  paste?: LineReader;
  stderr: Writable;
  debug: (line: string) => void;
  /** Opens a URL in the browser (injectable for tests). */
  opener?: (url: string) => Promise<void>;
}

export interface Authorization {
  code: string;
  redirectUri: string;
  /** Answers the browser (when the code came from the callback) and closes the server. */
  finish(result: { ok: true } | { ok: false; message: string }): Promise<void>;
}

/**
 * Runs the browser part of the authorization-code flow: a loopback server on 127.0.0.1:PORT
 * receives the redirect; the first callback with this attempt's state (or pasted line) wins, later hits
 * are refused, and a callback with another state is answered 400 without ending the wait.
 * Resolves with the code; the caller exchanges it and then calls `finish` to answer the browser.
 * On any failure the server is closed before the error propagates.
 */
export async function authorize(o: AuthorizationOptions): Promise<Authorization> {
  const state = randomBytes(24).toString('base64url');
  const redirectUri = callbackUri(o.port);
  const url = authorizeUrl(o.authUrl, o.clientId, redirectUri, state);

  let settled = false;
  let toldForeign = false;
  let pending: ServerResponse | undefined;
  let resolveCode!: (code: string) => void;
  let rejectCode!: (err: Error) => void;
  const codePromise = new Promise<string>((res, rej) => {
    resolveCode = res;
    rejectCode = rej;
  });
  codePromise.catch(() => undefined);

  const settle = (fn: () => void) => {
    if (settled) return false;
    settled = true;
    fn();
    return true;
  };

  const server = createServer((req, res) => handle(req, res));
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', redirectUri);
    if (u.pathname !== '/callback' || req.method !== 'GET') {
      page(res, 404, 'Not found', 'This server only receives the crmctl login callback.');
      return;
    }
    if (settled) {
      // A replayed or late callback: the login already used (or failed) its one chance.
      page(res, 400, 'Login request already used', 'This login link was already used. Run <code>crmctl auth login</code> again.');
      return;
    }
    const outcome = readCallback(u.searchParams, state);
    if (outcome.kind === 'foreign') {
      // Any local process can reach this port: a callback without this attempt's state is answered and
      // ignored, so it cannot end (or win) the login; the right one may still come until the timeout.
      page(res, 400, 'Login refused', 'This callback does not belong to the login in progress (state mismatch). Use the URL that <code>crmctl auth login</code> printed last.');
      if (!toldForeign) o.stderr.write('Refused a callback that does not belong to this login (state mismatch); still waiting.\n');
      toldForeign = true;
      return;
    }
    if (outcome.kind === 'code') {
      settle(() => {
        pending = res;
        resolveCode(outcome.code);
      });
      return;
    }
    settle(() => rejectCode(outcome.error));
    page(res, 400, outcome.title, escapeHtml(outcome.error.message));
  };

  await listen(server, o.port);
  const cleanup: Array<() => void> = [];
  const closeServer = () => closeQuietly(server);

  try {
    // Armed before the URL is shown, so Ctrl-C at any point closes the server.
    const timer = setTimeout(() => {
      settle(() =>
        rejectCode(
          new AuthError(
            `Timed out after ${Math.round(o.timeoutMs / 1000)} s waiting for the authorization (nothing arrived at ${redirectUri}).`,
            'Run `crmctl auth login` again (use --timeout SECONDS to wait longer, or --no-browser to paste the redirect URL).',
          ),
        ),
      );
    }, o.timeoutMs);
    cleanup.push(() => clearTimeout(timer));
    const onSigint = () => settle(() => rejectCode(new CancelledError('Login cancelled (Ctrl-C).')));
    process.once('SIGINT', onSigint);
    cleanup.push(() => process.off('SIGINT', onSigint));

    o.debug(`auth: waiting for the callback on ${redirectUri}`);
    o.stderr.write(`Open this URL in a browser to authorize crmctl:\n\n  ${url}\n\n`);
    if (o.openBrowser) {
      const opener = o.opener ?? defaultOpener;
      opener(url).catch((err: unknown) => {
        o.stderr.write(`Could not open a browser (${err instanceof Error ? err.message : String(err)}); open the URL above yourself. Still waiting...\n`);
      });
    } else {
      o.stderr.write(`Waiting for the redirect to ${redirectUri}.\nIf the browser runs on another machine, paste the URL it was redirected to (or just the code) here and press Enter:\n`);
    }

    // Pasted redirect URL or bare code (with --no-browser).
    if (o.paste) {
      const paste = o.paste;
      void (async () => {
        for (;;) {
          const line = await paste.next();
          if (line === undefined || settled) return;
          const text = line.trim();
          if (!text) continue;
          const outcome = parsePasted(text, state);
          if (outcome.kind === 'foreign') {
            o.stderr.write('That URL does not carry the state of this login (state mismatch: an older link?); paste the URL this one was redirected to, or just its code:\n');
            continue;
          }
          if (outcome.kind === 'code') settle(() => resolveCode(outcome.code));
          else settle(() => rejectCode(outcome.error));
          return;
        }
      })();
    }

    const code = await codePromise;
    for (const c of cleanup.splice(0)) c();
    return {
      code,
      redirectUri,
      async finish(result) {
        try {
          const res = pending;
          pending = undefined;
          if (res && !res.writableEnded) {
            if (result.ok) page(res, 200, 'crmctl is logged in', 'You can close this tab and return to the terminal.');
            else page(res, 400, 'Login failed', escapeHtml(result.message));
          }
        } finally {
          await closeServer();
        }
      },
    };
  } catch (err) {
    for (const c of cleanup.splice(0)) c();
    if (pending && !pending.writableEnded) page(pending, 500, 'Login failed', 'The login failed; see the terminal.');
    await closeServer();
    throw err;
  }
}

/** foreign: the callback does not carry this attempt's state, so it may not end the login. */
type Outcome = { kind: 'code'; code: string } | { kind: 'error'; error: CliError; title: string } | { kind: 'foreign' };

function sameState(a: string | null, b: string): boolean {
  if (a === null) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Interprets the callback query. Only a callback with this attempt's `state` ends the login, with a
 * code or an error (RFC 6749 §4.1.2.1 sends the state back with errors too); anything else is foreign.
 */
function readCallback(q: URLSearchParams, state: string): Outcome {
  if (!sameState(q.get('state'), state)) return { kind: 'foreign' };
  const error = q.get('error');
  if (error) {
    if (error === 'access_denied') {
      return { kind: 'error', title: 'Login cancelled', error: new AuthError('Login failed: you cancelled the consent (access_denied).', 'Run `crmctl auth login` again and allow the app.') };
    }
    const desc = q.get('error_description');
    return { kind: 'error', title: 'Login failed', error: new AuthError(`Login failed: the authorization server answered ${error}${desc ? ` (${desc})` : ''}.`) };
  }
  const code = q.get('code');
  if (!code) return { kind: 'error', title: 'Login failed', error: new AuthError('Login failed: the callback carried neither a code nor an error.') };
  return { kind: 'code', code };
}

/** A pasted line: the full redirect URL (state is checked) or a bare code. */
function parsePasted(text: string, state: string): Outcome {
  if (/^https?:\/\//i.test(text) || text.startsWith('/') || text.includes('?')) {
    let q: URLSearchParams;
    try {
      q = new URL(text, 'http://127.0.0.1/').searchParams;
    } catch {
      return { kind: 'error', title: 'Login failed', error: new AuthError('Login failed: the pasted text is not a URL or a code.') };
    }
    return readCallback(q, state);
  }
  if (/^code=/.test(text) || text.includes('&')) return readCallback(new URLSearchParams(text), state);
  return { kind: 'code', code: text };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') {
        reject(
          new AuthError(
            `The callback port ${port} on 127.0.0.1 is busy (another program or login is using it).`,
            `Stop the other program, or pass --callback-port N where http://127.0.0.1:N/callback is registered as the app's callback.`,
          ),
        );
      } else if (err.code === 'EACCES') {
        reject(new AuthError(`Not allowed to listen on 127.0.0.1:${port} (${err.code}).`, 'Use --callback-port with a port above 1024 that is registered as the app\'s callback.'));
      } else {
        reject(new CliError(`Could not start the login callback server on 127.0.0.1:${port}: ${err.message}`, EXIT.ERROR));
      }
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    // Loopback only: the callback must never be reachable from the network.
    server.listen(port, '127.0.0.1');
  });
}

function closeQuietly(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}

function page(res: ServerResponse, status: number, title: string, body: string): void {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:40em;margin:4em auto"><h1>${escapeHtml(title)}</h1><p>${body}</p></body></html>\n`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(html);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

async function defaultOpener(url: string): Promise<void> {
  const { default: open } = await import('open');
  const child = await open(url, { wait: false });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    // xdg-open & co. fail fast when nothing can open a browser.
    child.once('exit', (code) => (code && code !== 0 ? reject(new Error(`the opener exited with ${code}`)) : resolve()));
    setTimeout(resolve, 1500).unref();
  });
}
