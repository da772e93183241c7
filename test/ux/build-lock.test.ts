// ensureBuilt() builds under a lock (test/ux/built.ts): test workers that find the build stale at the
// same time build once, and a lock left by a dead or hung worker does not block the next run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOnce } from './built.js';

function scene() {
  const dir = mkdtempSync(join(tmpdir(), 'crmctl-build-lock-'));
  const lockFile = join(dir, '.build.lock');
  const stamp = join(dir, 'stamp');
  let builds = 0;
  const build = () => {
    builds++;
    writeFileSync(stamp, 'built');
  };
  return { lockFile, stamp, isCurrent: () => existsSync(stamp), build, builds: () => builds };
}

describe('buildOnce (ensureBuilt)', () => {
  it('builds when not current and releases the lock; does nothing when current', () => {
    const s = scene();
    expect(buildOnce(s)).toBe(true);
    expect(buildOnce(s)).toBe(false);
    expect(s.builds()).toBe(1);
    expect(existsSync(s.lockFile)).toBe(false);
  });

  it('another process holding the lock builds: this one waits for it, then finds the build current and does not build again', () => {
    const s = scene();
    // The other worker: holds the lock, "builds" (writes the stamp) after 500 ms, releases.
    const other = spawn('sh', ['-c', `sleep 0.5; echo built > '${s.stamp}'; rm '${s.lockFile}'`], { stdio: 'ignore' });
    writeFileSync(s.lockFile, `${other.pid} token ${new Date().toISOString()}\n`);
    const started = Date.now();
    expect(buildOnce(s)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(s.builds()).toBe(0);
  });

  it('a lock left by a process that no longer runs is taken over', () => {
    const s = scene();
    const dead = spawnSync('true').pid;
    writeFileSync(s.lockFile, `${dead} token 2026-01-01T00:00:00.000Z\n`);
    expect(buildOnce(s)).toBe(true);
    expect(s.builds()).toBe(1);
    expect(existsSync(s.lockFile)).toBe(false);
  });

  it('a lock older than staleMs is taken over even while its process runs (a hung build)', () => {
    const s = scene();
    const hung = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      writeFileSync(s.lockFile, `${hung.pid} token 2026-01-01T00:00:00.000Z\n`);
      expect(buildOnce({ ...s, staleMs: 0 })).toBe(true);
      expect(s.builds()).toBe(1);
    } finally {
      hung.kill();
    }
  });
});
