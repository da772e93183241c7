import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control, workDir } from './helpers.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());

/** Nothing a user gave is lost: rows that failed on a passing error are sent again by --resume, once. */
describe('import: rows that failed on a passing error are retried by --resume', () => {
  it('a budget that keeps refusing fails rows (exit 7); --resume creates exactly those rows, once', async () => {
    const f = join(workDir(), 'retry.ndjson');
    writeFileSync(f, `${Array.from({ length: 12 }, (_, i) => JSON.stringify({ title: `Retry ${i + 1}`, person_id: 1 })).join('\n')}\n`);
    // Every other request refused with 429, and no retries: some rows fail on the rate limit.
    await control(fx, 'PUT', 'faults', { rate429: 0.5, seed: 11 });
    const first = await runCli(['import', 'leads', '--file', f, '--concurrency', '1'], { env: { ...fx.env, CRMCTL_MAX_RETRIES: '0' } });
    await control(fx, 'PUT', 'faults', {});
    expect(first.code).toBe(7);
    expect(first.stderr).toContain('--resume');
    const afterFirst = (await fx.collection<{ title: string }>('leads')).filter((l) => l.title.startsWith('Retry ')).length;
    expect(afterFirst).toBeGreaterThan(0);
    expect(afterFirst).toBeLessThan(12);

    const second = await runCli(['import', 'leads', '--file', f, '--resume'], { env: fx.env });
    expect(second.stderr).not.toMatch(/\n\s+at /);
    expect(second.code).toBe(0);
    const titles = (await fx.collection<{ title: string }>('leads')).map((l) => l.title).filter((t) => t.startsWith('Retry '));
    expect(titles.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `Retry ${i + 1}`).sort());
  });
});
