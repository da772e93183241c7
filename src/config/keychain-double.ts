// TEST DOUBLE of the OS keychain, selected by CRMCTL_KEYCHAIN_DOUBLE=<dir> (never by default): the same
// synchronous Entry surface as @napi-rs/keyring (getPassword / setPassword / deletePassword), so the
// keychain store runs the very code it runs against the real binding. One file per entry in <dir>;
// a file named "locked" in <dir> makes every call fail, as a locked keychain does.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntryConstructor, KeyringEntry } from './keyring-entry.js';

export function doubleEntry(dir: string): EntryConstructor {
  return class DoubleEntry implements KeyringEntry {
    private readonly file: string;
    constructor(service: string, account: string) {
      this.file = join(dir, encodeURIComponent(`${service}:${account}`));
    }
    private check(): void {
      if (existsSync(join(dir, 'locked'))) throw new Error('Couldn\'t access platform storage: AccessDenied');
    }
    getPassword(): string | null {
      this.check();
      return existsSync(this.file) ? readFileSync(this.file, 'utf8') : null;
    }
    setPassword(password: string): void {
      this.check();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(this.file, password, { mode: 0o600 });
    }
    deletePassword(): boolean {
      this.check();
      if (!existsSync(this.file)) return false;
      rmSync(this.file);
      return true;
    }
  };
}
