import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());

/** Spinners (ora) go to stderr and only on a terminal; stdout keeps only results. */
describe('spinner', () => {
  it('on a terminal: drawn on stderr while the table loads, never on stdout', async () => {
    const r = await runCli(['lead-labels', 'list'], { env: fx.env, tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Loading…');
    expect(r.stdout).toContain('Hot');
    expect(r.stdout).not.toContain('Loading');
  });

  it('piped, or with --json on a terminal: no spinner at all', async () => {
    const piped = await runCli(['lead-labels', 'list'], { env: fx.env });
    expect(piped.stderr).toBe('');
    const json = await runCli(['lead-labels', 'list', '--json'], { env: fx.env, tty: true });
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout).length).toBeGreaterThan(0);
  });
});
