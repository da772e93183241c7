// Taking over a stale lock (src/fs/lock.ts) removes only the lock that was judged stale, and only one
// process at a time does it. The old "holder is dead, so unlink" let a waiter that had read the dead
// holder remove the lock another waiter had just created: two refreshes with one refresh token
// (test/auth/refresh-lock.test.ts shows the outcome through the CLI).
import { mkdtempSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { breakStale } from '../../src/fs/lock.js';

const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'crmctl-lock-'));
  return { dir, lock: join(dir, 'p.refresh.lock') };
};

describe('stale lock takeover', () => {
  it('removes the lock it judged stale, and nothing else is left behind', () => {
    const { dir, lock } = fresh();
    writeFileSync(lock, '999999 deadtoken 2026-01-01T00:00:00.000Z\n');
    expect(breakStale(lock, '999999 deadtoken 2026-01-01T00:00:00.000Z')).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves a lock that a live process took after the stale one was read', () => {
    const { dir, lock } = fresh();
    // What this waiter read: the dead holder. What is there now: another waiter's new lock.
    writeFileSync(lock, `${process.pid} newtoken 2026-01-01T00:00:01.000Z\n`);
    expect(breakStale(lock, '999999 deadtoken 2026-01-01T00:00:00.000Z')).toBe(true);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} newtoken 2026-01-01T00:00:01.000Z\n`);
    expect(readdirSync(dir)).toEqual(['p.refresh.lock']);
  });

  it('while another process holds the takeover guard, does nothing; a guard left by a crash is cleared', () => {
    const { dir, lock } = fresh();
    writeFileSync(lock, '999999 deadtoken t\n');
    writeFileSync(`${lock}.break`, '');
    expect(breakStale(lock, '999999 deadtoken t')).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['p.refresh.lock', 'p.refresh.lock.break']);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${lock}.break`, old, old);
    expect(breakStale(lock, '999999 deadtoken t')).toBe(false);
    expect(breakStale(lock, '999999 deadtoken t')).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });
});
