// `crmctl --help` written to a pipe is served from the page the build rendered (bin/crmctl.js's fast
// path, dist/cli/root-help.txt): it must stay exactly what the CLI itself prints for that command line.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, spawnCli } from '../helpers/cli.js';
import { BUNDLE_MAIN, ensureBuilt } from './built.js';

beforeAll(() => ensureBuilt(), 120_000);

/** The bundle's own main() in a child whose stdout is a pipe, as the bin's fast path is. */
function slowPath(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `const { main } = await import(${JSON.stringify(pathToFileURL(BUNDLE_MAIN).href)}); process.exitCode = await main(${JSON.stringify(args)});`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('crmctl --help fast path', () => {
  it.each([['--help'], ['-h']])('%s prints what the CLI renders, exit 0', async (flag) => {
    const [fast, slow] = await Promise.all([spawnCli([flag]), slowPath([flag])]);
    expect(slow.code).toBe(0);
    expect(slow.stdout).toMatch(/^Usage: crmctl \[options\] \[command\]\n/);
    expect(fast).toEqual({ code: 0, stdout: slow.stdout, stderr: '' });
  });

  it('other root command lines still run the CLI (--no-color --help: same page)', async () => {
    const [withFlag, plain] = await Promise.all([spawnCli(['--no-color', '--help']), slowPath(['--help'])]);
    expect(withFlag).toEqual({ code: 0, stdout: plain.stdout, stderr: '' });
  });
});
