/**
 * The id map of a restore: per kind, old id (the backup's) → new id (the target's), one file per kind
 * in DIR/restore/<account-key>/idmap/<kind>.ndjson. A line is appended and fsynced as soon as a create
 * answers, before the journal says "done": a kill after it loses nothing, and every later link to that
 * record (and `crmctl diff`) reads it from here.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { AccountIdentity } from '../runs/account.js';
import { paths } from './format.js';

/** The folder name of a target account: its API host and company (never shared between accounts). */
export function accountKey(a: Pick<AccountIdentity, 'origin' | 'company_id'>): string {
  return `${new URL(a.origin).host.replace(/[^A-Za-z0-9.-]/g, '_')}-company-${a.company_id ?? 'unknown'}`;
}

export class IdMap {
  private readonly maps = new Map<string, Map<string, unknown>>();
  private readonly fds = new Map<string, number>();

  constructor(private readonly dir: string) {
    if (!existsSync(dir)) return;
    for (const f of readdirSync(dir)) {
      if (!f.endsWith('.ndjson')) continue;
      const m = this.of(f.slice(0, -'.ndjson'.length));
      for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          const e = JSON.parse(line) as { old: unknown; new: unknown };
          m.set(String(e.old), e.new);
        } catch {
          // A line cut by a kill mid-write: the journal's "sending" entry settles that record again.
        }
      }
    }
  }

  /** The map of a backup's restore into an account, or undefined when nothing was restored there. */
  static of(backupDir: string, key: string): IdMap | undefined {
    const d = paths.idmap(backupDir, key);
    return existsSync(d) ? new IdMap(d) : undefined;
  }

  private of(kind: string): Map<string, unknown> {
    let m = this.maps.get(kind);
    if (!m) {
      m = new Map();
      this.maps.set(kind, m);
    }
    return m;
  }

  get(kind: string, old: unknown): unknown {
    return this.maps.get(kind)?.get(String(old));
  }

  has(kind: string, old: unknown): boolean {
    return this.maps.get(kind)?.has(String(old)) ?? false;
  }

  /** New ids of a kind: a look-up by content never settles on one of them for another record. */
  taken(kind: string): Set<string> {
    return new Set([...(this.maps.get(kind)?.values() ?? [])].map(String));
  }

  size(kind: string): number {
    return this.maps.get(kind)?.size ?? 0;
  }

  /** Appends old → new and fsyncs it before returning. */
  add(kind: string, old: unknown, id: unknown): void {
    let fd = this.fds.get(kind);
    if (fd === undefined) {
      mkdirSync(this.dir, { recursive: true });
      fd = openSync(join(this.dir, `${kind}.ndjson`), 'a', 0o644);
      this.fds.set(kind, fd);
    }
    writeSync(fd, `${JSON.stringify({ old, new: id })}\n`);
    fsyncSync(fd);
    this.of(kind).set(String(old), id);
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }
}
