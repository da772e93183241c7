// Short CI version of `LOAD_SECONDS=60 LOAD_CLIENTS=16 node scripts/sandbox-load.mjs`: mixed CRUD
// from concurrent clients against a sandbox process with a data file, then kill -9. No 5xx, no
// acknowledged write lost (in the live state and in the data file), the file whole JSON.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/sandbox-load.mjs', import.meta.url));

describe('sandbox under load (short)', () => {
  it('8 clients for 6 s: no 5xx, no lost write, data file valid after kill -9', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [SCRIPT], { env: { ...process.env, LOAD_SECONDS: '6', LOAD_CLIENTS: '8' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c ?? -1, stdout: out, stderr: err }));
    });
    const r = JSON.parse(stdout);
    process.stdout.write(`load (short): ${JSON.stringify(r)}\n`);
    expect(r.requests).toBeGreaterThan(200);
    expect(r.acknowledged_lead_creates).toBeGreaterThan(20);
    expect({ fivexx: r.server_errors_5xx, lost: r.lost_writes, fileValid: r.data_file_valid_after_kill_9, missingFromFile: r.acknowledged_creates_missing_from_file })
      .toEqual({ fivexx: 0, lost: 0, fileValid: true, missingFromFile: 0 });
    expect(code, stderr).toBe(0);
  }, 60_000);
});
