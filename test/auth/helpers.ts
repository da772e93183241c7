import { createServer } from 'node:net';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { main } from '../../src/main.js';
import type { IO } from '../../src/core/io.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/types.js';
import { saveProfile, type Profile } from '../../src/config/store.js';
import { BIN, cleanEnv, tempConfigDir, type RunResult } from '../helpers/cli.js';

/** A port that was free a moment ago (bind to 0, read it, close). */
/**
 * A port for a callback server a test starts later. Taken below the kernel's ephemeral range
 * (32768-60999 on Linux): a port that "listen(0)" handed out and gave back can be handed to another
 * test's server (a sandbox on port 0) before ours binds it; these are never handed out that way.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const ok = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (ok) return port;
  }
  throw new Error('no free port between 20000 and 32000');
}

export interface AuthFixture {
  sandbox: RunningSandbox;
  callbackPort: number;
  configDir: string;
  /** Env for runCli/spawnCli with a private config dir (no credentials). */
  env: Record<string, string>;
  ctl<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  requests(): Promise<Array<{ method: string; path: string; status: number; auth: string; query: Record<string, unknown>; body: unknown }>>;
  /** Mint a token pair at the sandbox (control endpoint). */
  mint(o?: { lifetimeSec?: number; scopes?: string[] }): Promise<{ access_token: string; refresh_token: string; expires_in: number; scope: string; api_domain: string }>;
  /** Store a logged-in profile built from minted tokens. */
  seedProfile(name: string, tokens: { access_token: string; refresh_token: string; expires_in: number; scope: string }, extra?: Partial<Profile>): Promise<void>;
  /**
   * Let the access token run out without waiting: the sandbox's clock moves past its lifetime (the
   * service refuses it) and the stored expiry lies in the past (crmctl refreshes before calling).
   */
  expire(name: string, tokens: { expires_in: number }): Promise<void>;
  close(): Promise<void>;
}

export async function startAuthFixture(opts: SandboxOptions = {}): Promise<AuthFixture> {
  const callbackPort = await freePort();
  const sandbox = await startSandbox({ port: 0, seed: 'empty', redirectUris: [`http://127.0.0.1:${callbackPort}/callback`], ...opts });
  const configDir = tempConfigDir();
  const env = { CRMCTL_CONFIG_DIR: configDir };
  const ctl = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${sandbox.url}/__sandbox/${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    return (parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed) as T;
  };
  return {
    sandbox,
    callbackPort,
    configDir,
    env,
    ctl,
    requests: () => ctl('GET', 'requests'),
    mint: (o = {}) => ctl('POST', 'tokens', { lifetime_sec: o.lifetimeSec ?? 3600, ...(o.scopes ? { scopes: o.scopes } : {}) }),
    async seedProfile(name, t, extra = {}) {
      await saveProfile(
        name,
        {
          authUrl: sandbox.url,
          clientId: sandbox.clientId,
          clientSecret: sandbox.clientSecret,
          callbackPort,
          apiDomain: sandbox.url,
          accessToken: t.access_token,
          refreshToken: t.refresh_token,
          expiresAt: Date.now() + t.expires_in * 1000,
          scopes: t.scope.split(/[\s,]+/).filter(Boolean),
          kind: 'oauth',
          ...extra,
        },
        cleanEnv(env),
      );
    },
    async expire(name, t) {
      await ctl('POST', 'clock', { advance_sec: t.expires_in + 1 });
      await saveProfile(name, { expiresAt: Date.now() - 1000 }, cleanEnv(env));
    },
    close: () => sandbox.close(),
  };
}

/** A child crmctl whose stderr we can watch while it runs (for the login flow). */
export interface LiveCli {
  /** Resolves with the first stderr match of `re`. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  write(s: string): void;
  endInput(): void;
  kill(signal?: NodeJS.Signals): void;
  done: Promise<RunResult>;
  stderr(): string;
}

export function liveCli(args: string[], env: Record<string, string | undefined>): LiveCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const watchers: Array<() => void> = [];
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    for (const w of [...watchers]) w();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const done = new Promise<RunResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      for (const w of [...watchers]) w();
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
  let exited = false;
  void done.then(() => (exited = true));
  return {
    waitFor: stderrWaiter(() => stderr, () => exited, watchers, 'process exited'),
    write: (s) => child.stdin.write(s),
    endInput: () => child.stdin.end(),
    kill: (signal = 'SIGINT') => child.kill(signal),
    done,
    stderr: () => stderr,
  };
}

/** The authorize URL a login printed. */
export const AUTHORIZE_URL = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/;

/** Like liveCli but runs `main` in this process (no build needed); stdin is a writable pipe. */
export function liveMain(args: string[], env: Record<string, string | undefined>): LiveCli {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderrStream = new PassThrough();
  let out = '';
  let err = '';
  const watchers: Array<() => void> = [];
  stdout.on('data', (d) => (out += d));
  stderrStream.on('data', (d) => {
    err += d;
    for (const w of [...watchers]) w();
  });
  const io: IO = { stdin, stdout, stderr: stderrStream, isStdinTTY: false, isStdoutTTY: false, isStderrTTY: false, columns: 0 };
  let exited = false;
  const done = main(args, io, cleanEnv(env)).then((code) => {
    exited = true;
    for (const w of [...watchers]) w();
    return { code, stdout: out, stderr: err } as RunResult;
  });
  return {
    waitFor: stderrWaiter(() => err, () => exited, watchers, 'command finished'),
    write: (s) => stdin.write(s),
    endInput: () => stdin.end(),
    kill: () => process.emit('SIGINT'),
    done,
    stderr: () => err,
  };
}

/**
 * Plays the browser at the sandbox's consent page. With autoApprove the authorize URL redirects
 * at once; otherwise the consent form is submitted with the chosen button. Returns the redirect
 * location (the CLI's callback URL with code or error).
 */
export async function consent(authorizeUrl: string, decision: 'allow' | 'deny' = 'allow'): Promise<string> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  if (res.status >= 300 && res.status < 400) return res.headers.get('location')!;
  const html = await res.text();
  if (res.status !== 200) throw new Error(`authorize page answered ${res.status}: ${html.slice(0, 300)}`);
  // One form per decision (hidden `decision` field), or one form with named buttons.
  const forms = [...html.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/gi)];
  if (!forms.length) throw new Error(`no consent form in:\n${html.slice(0, 500)}`);
  const wanted = decision === 'allow' ? /^(allow|approve|yes)$/i : /^(deny|cancel|no)$/i;
  let chosen: { action: string; fields: URLSearchParams } | undefined;
  for (const form of forms) {
    const fields = new URLSearchParams();
    for (const m of form[2]!.matchAll(/<input[^>]*>/gi)) {
      const tag = m[0];
      const name = /name="([^"]*)"/.exec(tag)?.[1];
      const value = /value="([^"]*)"/.exec(tag)?.[1] ?? '';
      if (name && /type="hidden"/i.test(tag)) fields.set(name, decode(value));
    }
    const button = [...form[2]!.matchAll(/<button[^>]*name="([^"]*)"[^>]*value="([^"]*)"[^>]*>/gi)].find((b) => wanted.test(b[2]!));
    if (button) fields.set(button[1]!, decode(button[2]!));
    if (button || wanted.test(fields.get('decision') ?? '')) {
      chosen = { action: new URL(decode(form[1]!), authorizeUrl).toString(), fields };
      break;
    }
  }
  if (!chosen) throw new Error(`no ${decision} form in:\n${html.slice(0, 1500)}`);
  const { action, fields } = chosen;
  const post = await fetch(action, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString() });
  const loc = post.headers.get('location');
  if (!loc) throw new Error(`decision answered ${post.status} without a redirect: ${(await post.text()).slice(0, 300)}`);
  return loc;
}

function decode(s: string): string {
  return s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Exchange a refresh token directly, as a check that the sandbox accepts it. */
export async function refreshAccepted(authUrl: string, clientId: string, clientSecret: string, refreshToken: string): Promise<boolean> {
  const res = await fetch(`${authUrl}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  });
  await res.text();
  return res.status === 200;
}

/** Resolves when stderr matches `re`; fails when the command ends first or after `timeoutMs`. */
function stderrWaiter(text: () => string, ended: () => boolean, watchers: Array<() => void>, endedWhat: string) {
  return (re: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const m = text().match(re);
        if (m) {
          cleanup();
          resolve(m);
        } else if (ended()) {
          cleanup();
          reject(new Error(`${endedWhat} before ${re}; stderr:\n${text()}`));
        }
      };
      const t = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${re}; stderr:\n${text()}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(t);
        const i = watchers.indexOf(check);
        if (i >= 0) watchers.splice(i, 1);
      };
      watchers.push(check);
      check();
    });
}
