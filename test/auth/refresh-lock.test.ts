// A refresh lock left by a crashed run (its pid no longer runs) is taken over by exactly one of many
// processes that all need a refresh at once: the refresh token is used once, never twice.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { refreshAccepted, startAuthFixture, type AuthFixture } from './helpers.js';

describe('stale refresh lock', () => {
  let fx: AuthFixture;
  beforeEach(async () => {
    fx = await startAuthFixture();
  });
  afterEach(async () => fx.close());

  it('16 processes with an expired token and a dead holder\'s lock: one refresh between them, all succeed', async () => {
    const t = await fx.mint({ lifetimeSec: 1 });
    await fx.seedProfile('default', t);
    await fx.expire('default', t);
    // A pid that ran a moment ago and no longer does; the lock is fresh by age, stale by its holder.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const lock = join(fx.configDir, 'default.refresh.lock');
    writeFileSync(lock, `${dead} deadbeefdeadbeef ${new Date().toISOString()}\n`, { mode: 0o600 });

    const results = await Promise.all(Array.from({ length: 16 }, () => spawnCli(['lead-labels', 'list', '--json'], { env: fx.env, timeoutMs: 90_000 })));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const tokenCalls = (await fx.requests()).filter((r) => r.path.startsWith('/oauth/token'));
    expect(tokenCalls).toHaveLength(1);
    // The lock is released and nothing is left beside the config (no takeover guard).
    expect(existsSync(lock)).toBe(false);
    expect(readdirSync(fx.configDir).sort()).toEqual(['config.json']);
    const stored = JSON.parse((await import('node:fs')).readFileSync(join(fx.configDir, 'config.json'), 'utf8')).profiles.default;
    expect(await refreshAccepted(fx.sandbox.url, fx.sandbox.clientId, fx.sandbox.clientSecret, stored.refreshToken)).toBe(true);
  }, 120_000);
});
