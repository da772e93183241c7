import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';

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
});
