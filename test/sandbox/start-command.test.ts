import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { BIN, cleanEnv, runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';

describe('crmctl sandbox start', () => {
  it('a busy port is named with the fix (exit 1, no stack trace)', async () => {
    const other = await startSandbox({ port: 0 });
    try {
      const r = await runCli(['sandbox', 'start', '--port', String(other.port), '--no-profile'], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`error: Port ${other.port} on 127.0.0.1 is already in use (another sandbox?).\nhint: Stop the other process, or pick another port: --port 0 takes a free one.\n`);
      expect(r.stdout).toBe('');
    } finally {
      await other.close();
    }
  });

  it('bad numbers are refused before anything starts', async () => {
    const r = await runCli(['sandbox', 'start', '--port', 'eighty', '--no-profile'], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--port: must be an integer from 0 to 65535 (got "eighty")');
    const f = await runCli(['sandbox', 'start', '--faults', '5xx=2', '--no-profile'], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(f.code).toBe(2);
    expect(f.stderr).toContain('--faults: 5xx must be a share between 0 and 1 (got 2)');
  });

  // The process boundary is the point: a sandbox that failed after listening kept the process alive,
  // and a script waiting for its JSON line waited for ever.
  it('a corrupt config file: exit 1 naming the file, no JSON line, and the process ends (it does not keep serving)', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": {');
    const r = await spawnCli(['sandbox', 'start', '--port', '0'], { env: { CRMCTL_CONFIG_DIR: dir }, timeoutMs: 20_000 });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: The config file ${join(dir, 'config.json')} is not valid JSON`);
    expect(r.stderr).toContain(`hint: Fix or delete ${join(dir, 'config.json')}`);
  });

  it('piped, the JSON line comes once it listens: the URL answers at once; SIGINT stops it with exit 0', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--no-profile'], { env: cleanEnv({ CRMCTL_CONFIG_DIR: tempConfigDir() }), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(out);
        });
        child.on('close', () => reject(new Error(`exited before its JSON line: ${out}`)));
      });
      expect(line.endsWith('\n')).toBe(true);
      const info = JSON.parse(line) as { url: string; profile: unknown };
      expect(info).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), profile: null });
      expect((await fetch(`${info.url}/__sandbox/info`)).status).toBe(200);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});
