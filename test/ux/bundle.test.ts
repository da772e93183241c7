// Users run bin/crmctl.js, which loads the esbuild bundle (dist/cli). These tests run that bundle:
// every command's --help and one call per area through the bundle's own `main` (in this process, so
// hundreds of commands take seconds), and every command that does its own I/O (sandbox control verbs,
// doctor, webhooks listen, auth login, the crash report) as a spawned bin/crmctl.js.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/api/operation.js';
import { TABLES } from '../../src/api/operations/index.js';
import type { IO } from '../../src/core/io.js';
import { flatten, type TreeNode } from '../../src/core/command.js';
import { commandTree } from '../../src/program.js';
import { operationFields } from '../../src/input/operation-input.js';
import { consent, freePort, liveCli, AUTHORIZE_URL } from '../auth/helpers.js';
import { cleanEnv, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { BUNDLE_MAIN, ROOT, ensureBuilt } from './built.js';

type Main = typeof import('../../src/main.js').main;
let bundledMain: Main;
let tree: TreeNode;
let fx: SandboxFixture;
const VERSION = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string }).version;

beforeAll(async () => {
  ensureBuilt();
  bundledMain = ((await import(pathToFileURL(BUNDLE_MAIN).href)) as { main: Main }).main;
  tree = await commandTree();
  fx = await startFixture();
}, 120_000);
afterAll(() => fx?.close());

async function runBundled(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let out = '';
  let err = '';
  const stdout = new PassThrough().on('data', (d) => (out += d));
  const stderr = new PassThrough().on('data', (d) => (err += d));
  const io: IO = { stdin: Readable.from([]), stdout, stderr, isStdinTTY: false, isStdoutTTY: false, isStderrTTY: false, columns: 0 };
  const code = await bundledMain(args, io, cleanEnv(env));
  return { code, stdout: out, stderr: err };
}

/**
 * A description line that stops well short of the wrap width and is followed by more text of the same
 * paragraph: a source line break leaked into the help (commander wraps paragraphs itself).
 */
function brokenParagraph(help: string): string | undefined {
  const head = help.split(/\n(Arguments|Options|Commands):\n/)[0]!.split('\n').slice(2);
  for (let i = 0; i < head.length - 1; i++) {
    const line = head[i]!, next = head[i + 1]!;
    if (line.trim() && next.trim() && !/^\s*-/.test(next) && line.length < 40 && !/[.:)]$/.test(line)) return `${line}⏎${next}`;
  }
  return undefined;
}

describe('the bundle users run', () => {
  it('every command answers --help with its usage, an example and the operations it calls', async () => {
    const problems: string[] = [];
    for (const node of flatten(tree).filter((n) => n.path.length)) {
      const r = await runBundled([...node.path, '--help']);
      const leaf = node.children.length === 0;
      if (r.code !== 0) problems.push(`${node.path.join(' ')}: exit ${r.code} ${r.stderr}`);
      else if (!r.stdout.startsWith(`Usage: crmctl ${node.path.join(' ')}`)) problems.push(`${node.path.join(' ')}: ${r.stdout.split('\n')[0]}`);
      else if (leaf && !/\nExamples:\n {2}\$ crmctl /.test(r.stdout)) problems.push(`${node.path.join(' ')}: no example`);
      else if (leaf && node.spec?.operations?.length && !/\nCalls:\n {2}(GET|POST|PUT|PATCH|DELETE) \//.test(r.stdout)) problems.push(`${node.path.join(' ')}: no Calls block`);
      else if (brokenParagraph(r.stdout)) problems.push(`${node.path.join(' ')}: a description paragraph breaks mid-sentence: ${JSON.stringify(brokenParagraph(r.stdout))}`);
    }
    expect(problems).toEqual([]);
    expect(flatten(tree).length).toBeGreaterThan(150);
  }, 120_000);

  it('one read per area answers through the bundle, and reaches the sandbox', async () => {
    const answered: string[] = [];
    for (const [area, table] of Object.entries(TABLES)) {
      // The first list or get of the area that needs no argument and no required flag.
      const op = rowsOf(table).find((o) => o.method === 'GET' && !o.cli.handWritten && !o.cli.switch && operationFields(o).args.length === 0 && !operationFields(o).fields.some((f) => f.required));
      if (!op) continue;
      await fx.clearRequests();
      const r = await runBundled([...op.cli.command, '--json'], fx.env);
      expect({ area, code: r.code, stderr: r.stderr }).toEqual({ area, code: 0, stderr: '' });
      expect(() => JSON.parse(r.stdout), `${area}: ${r.stdout.slice(0, 200)}`).not.toThrow();
      expect((await fx.requests()).map((q) => `${q.method} ${q.path}`), area).toContain(`GET ${op.path}`);
      answered.push(area);
    }
    expect(answered.length).toBeGreaterThanOrEqual(Object.keys(TABLES).length - 6);
  }, 120_000);
});

/** Runs the bin with stdout and stderr collected; resolves when the first stdout line arrives. */
function spawnUntilLine(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [`${ROOT}bin/crmctl.js`, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('close', (code) => reject(new Error(`exited ${code} before a line: ${err}`)));
  });
  const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return { child, firstLine, closed, stderr: () => err, stdout: () => out };
}

describe('bin/crmctl.js: commands with their own I/O', () => {
  it('sandbox start, then requests, faults and reset against it; a stopped one is named with its cause', async () => {
    const env = { CRMCTL_CONFIG_DIR: tempConfigDir() };
    const sb = spawnUntilLine(['sandbox', 'start', '--port', '0', '--no-profile', '--seed', 'empty'], env);
    try {
      const info = JSON.parse(await sb.firstLine) as { url: string; client_id: string; profile: null };
      expect(info).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), profile: null });
      const requests = await spawnCli(['sandbox', 'requests', '--url', info.url, '--json'], { env });
      expect(requests).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(requests.stdout)).toEqual([]);
      const faults = await spawnCli(['sandbox', 'faults', '5xx=0.5', '--url', info.url, '--json'], { env });
      expect(faults.code, faults.stderr).toBe(0);
      expect(JSON.parse(faults.stdout)).toMatchObject({ rate5xx: 0.5 });
      const reset = await spawnCli(['sandbox', 'reset', '--seed', 'empty', '--yes', '--url', info.url], { env });
      expect(reset).toMatchObject({ code: 0, stdout: '', stderr: '' });
      const noYes = await spawnCli(['sandbox', 'reset', '--url', info.url], { env });
      expect(noYes.code).toBe(2);
      expect(noYes.stderr).toContain('Pass --yes to confirm');
    } finally {
      sb.child.kill('SIGTERM');
    }
    expect(await sb.closed).toBe(0);
    const port = await freePort();
    const gone = await spawnCli(['sandbox', 'requests', '--url', `http://127.0.0.1:${port}`], { env });
    expect(gone).toMatchObject({ code: 1, stdout: '' });
    expect(gone.stderr).toBe(`error: No sandbox answers at http://127.0.0.1:${port} (ECONNREFUSED).\nhint: Start it with \`crmctl sandbox start\`, or give its address with --url.\n`);
  }, 60_000);

  it('a control URL that is not a sandbox keeps its real cause', async () => {
    const server = createServer((_req, res) => res.end('<html>not a sandbox</html>'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const r = await spawnCli(['sandbox', 'requests', '--url', `http://127.0.0.1:${port}`], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`http://127.0.0.1:${port} answered 200 with something that is not JSON (26 characters): is it a crmctl sandbox?`);
    } finally {
      server.close();
    }
  });

  it('doctor checks the setup against the sandbox (exit 0, every check named)', async () => {
    const r = await spawnCli(['doctor'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^✓ API reachable +http:\/\/127\.0\.0\.1:\d+ answered in \d+ ms; signed in as Ada Admin$/m);
    expect(r.stdout).toMatch(/All checks passed\.\n$/);
    const csv = await spawnCli(['doctor', '--output', 'csv'], { env: fx.env });
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')[0]).toBe('id,status,title,detail,fix');
    expect(csv.stdout).toMatch(/\r\napi-reachable,pass,API reachable,/);
  });

  it('webhooks listen prints each delivery as one JSON line when piped, and stops after --max-events', async () => {
    const cli = liveCli(['webhooks', 'listen', '--port', '0', '--max-events', '1'], { CRMCTL_CONFIG_DIR: tempConfigDir() });
    const [, url] = await cli.waitFor(/Listening for webhook deliveries on (http:\/\/127\.0\.0\.1:\d+\/)/);
    const event = { meta: { action: 'create', entity: 'deal', entity_id: '7', version: '2.0' }, data: { id: 7, title: 'Hello' }, previous: null };
    const res = await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) });
    expect(res.status).toBe(200);
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(event)}\n`);
    const csv = await spawnCli(['webhooks', 'listen', '--port', '0', '--output', 'csv'], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain('--output csv: events have no fixed columns');
  });

  it('auth login runs the loopback flow and stores the token', async () => {
    const callbackPort = await freePort();
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const sb = await startSandbox({ port: 0, seed: 'empty', redirectUris: [`http://127.0.0.1:${callbackPort}/callback`] });
    const configDir = tempConfigDir();
    try {
      const cli = liveCli(['auth', 'login', '--profile', 'work', '--auth-url', sb.url, '--client-id', sb.clientId, '--client-secret-stdin', '--callback-port', String(callbackPort), '--no-browser'], { CRMCTL_CONFIG_DIR: configDir });
      cli.write(`${sb.clientSecret}\n`);
      const [, authorize] = await cli.waitFor(AUTHORIZE_URL);
      const location = await consent(authorize!);
      expect((await fetch(location)).status).toBe(200);
      const r = await cli.done;
      expect(r.code, r.stderr).toBe(0);
      const stored = JSON.parse(readFileSync(`${configDir}/config.json`, 'utf8')) as { profiles: { work: { accessToken?: string; apiDomain?: string } } };
      expect(stored.profiles.work).toMatchObject({ accessToken: expect.any(String), apiDomain: sb.url });
    } finally {
      await sb.close();
    }
  }, 60_000);

  it('an unexpected failure names source files and lines (the bundle ships its source maps)', async () => {
    const r = await spawnCli(['leads', 'list'], { env: { CRMCTL_INTERNAL_CRASH: '1', CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: unexpected failure: internal crash requested by CRMCTL_INTERNAL_CRASH\nat: src/main.ts:${mainLine()}\nhint: report it with the lines above and crmctl ${VERSION} (\`--debug\` adds the HTTP trace; secrets are redacted).\n`);
  });

  it('--version and the user agent both come from package.json', async () => {
    const v = await spawnCli(['--version']);
    expect(v).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: true, data: [] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const r = await spawnCli(['lead-labels', 'list', '--json'], { env: { CRMCTL_ACCESS_TOKEN: 'token-for-agent-test', CRMCTL_API_DOMAIN: `http://127.0.0.1:${port}`, CRMCTL_CONFIG_DIR: tempConfigDir() } });
      expect(r.code, r.stderr).toBe(0);
      expect(seen[0]!['user-agent']).toBe(`crmctl/${VERSION} node/${process.versions.node}`);
    } finally {
      server.close();
    }
  });
});

/** The line of src/main.ts that throws the requested crash. */
function mainLine(): number {
  return readFileSync(`${ROOT}src/main.ts`, 'utf8').split('\n').findIndex((l) => l.includes("throw new TypeError('internal crash requested")) + 1;
}
