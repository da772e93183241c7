// The package ships what it runs: `npm pack` holds the bin, the esbuild bundle (dist/cli), docs and
// completions, and the one dependency the bundle leaves outside (open, bundled with its own
// dependencies so an install needs no registry); not tsc's per-file output. The tarball, installed
// into an empty prefix without network, answers --version, starts a sandbox and lists from it.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from './built.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; bundleDependencies: string[] };

/** The environment without what `npm test` exports to its children (npm_config_*, npm_package_*): npm here must act as a user's would. */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

interface PackResult { filename: string; entryCount: number; files: Array<{ path: string }>; bundled: string[] }

let dir: string;
let packed: PackResult;
beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'crmctl-pack-'));
  // --ignore-scripts: prepare would rebuild dist/ under the other tests' feet; ensureBuilt made it current.
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, env: npmEnv(), maxBuffer: 64 * 1024 * 1024 });
  packed = (JSON.parse(stdout) as PackResult[])[0]!;
}, 180_000);

const sandboxes: Array<ReturnType<typeof spawn>> = [];
afterAll(() => {
  for (const c of sandboxes) c.kill('SIGTERM');
});

describe('npm pack', () => {
  it('holds the bin, the bundle, docs, completions and the bundled `open`; no per-file compiler output, sources or tests', () => {
    const paths = packed.files.map((f) => f.path);
    const allowed = [/^package\.json$/, /^README\.md$/, /^bin\/crmctl\.js$/, /^dist\/cli\//, /^completions\//, /^docs\//, ...pkg.bundleDependencies.length ? [/^node_modules\//] : []];
    expect(paths.filter((p) => !allowed.some((a) => a.test(p)))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('dist/') && !p.startsWith('dist/cli/'))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['bin/crmctl.js', 'dist/cli/main.js', 'dist/cli/main.js.map', 'package.json', 'node_modules/open/package.json']));
    // Bundled node_modules are `open` and its own dependencies, nothing the bundle already inlines.
    expect(packed.bundled).toContain('open');
    for (const name of ['zod', 'commander', 'undici', 'yaml']) expect(packed.bundled).not.toContain(name);
    // 1,073 files at this writing (552 of the bundle, 427 command pages); tsc's per-file output would add
    // about 1,200 more: the bound catches it coming back, with room for new commands.
    expect(packed.entryCount).toBeLessThan(1500);
  });

  it('installs into an empty prefix without network; the installed crmctl answers --version, starts a sandbox and lists from it', async () => {
    const prefix = join(dir, 'prefix');
    await run('npm', ['install', '--prefix', prefix, join(dir, packed.filename), '--offline', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { env: npmEnv() });
    const crmctl = join(prefix, 'node_modules', '.bin', 'crmctl');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CRMCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'crmctl-pack-config-')) };
    expect((await run(crmctl, ['--version'], { env })).stdout).toBe(`${pkg.version}\n`);

    const sandbox = spawn(crmctl, ['sandbox', 'start', '--port', '0', '--no-profile', '--seed', 'demo'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    sandboxes.push(sandbox);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      sandbox.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]!) as { url: string }).url);
      });
      sandbox.on('close', (code) => reject(new Error(`sandbox exited ${code}`)));
    });
    const token = ((await (await fetch(`${url}/__sandbox/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"user_id":1}' })).json()) as { data: { access_token: string } }).data.access_token;
    const labels = await run(crmctl, ['lead-labels', 'list', '--json'], { env: { ...env, CRMCTL_ACCESS_TOKEN: token, CRMCTL_API_DOMAIN: url } });
    expect(labels.stderr).toBe('');
    const demo = ((await (await fetch(`${url}/api/v1/leadLabels`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: unknown[] }).data;
    expect(demo.length).toBeGreaterThan(0);
    expect(JSON.parse(labels.stdout)).toEqual(demo);
  }, 180_000);
});
