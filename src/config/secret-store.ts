// Where a profile's secrets live: the OS keychain where one is available (through @napi-rs/keyring,
// an optional dependency with prebuilt binaries, loaded only when needed), else the config file (0600).
// CRMCTL_SECRET_STORE=file|keychain forces one. CRMCTL_KEYCHAIN_DOUBLE=<dir> swaps the native binding
// for a file-backed double with the same Entry get/set/delete surface (tests; no keychain daemon there).
import { CliError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import type { EntryConstructor, KeyringEntry } from './keyring-entry.js';

/** The secret fields of a profile. Everything else stays in the config file. */
export const SECRET_FIELDS = ['accessToken', 'refreshToken', 'clientSecret'] as const;
export type SecretField = (typeof SECRET_FIELDS)[number];
export type Secrets = Partial<Record<SecretField, string>>;


/**
 * Which profile a store is asked about. Keychain entries live outside the config directory, so they
 * are keyed by it too: two config directories (CRMCTL_CONFIG_DIR) with a profile "default" are two
 * sets of entries. `dir` absent names the entries of earlier versions, keyed by the profile name
 * alone (shared by every config directory); they are only read, once, to move them.
 */
export interface ProfileRef {
  name: string;
  /** The config directory, resolved (symbolic links followed), or absent for an entry of earlier versions. */
  dir?: string;
}

/** The config file's marker of a keychain profile whose entries are keyed by its config directory. */
export const BY_CONFIG_DIR = 'by-config-dir';

/**
 * One place a profile's secrets can live. `stored` is the profile's object in the config file: the
 * file store keeps the secrets there, the keychain store keeps them out of it.
 */
export interface SecretStore {
  readonly kind: 'keychain' | 'file';
  /** The secrets of a profile (absent fields: none stored). */
  read(profile: ProfileRef, stored: Record<string, unknown>): Secrets;
  /** Stores the given fields; a field given as undefined is removed. */
  write(profile: ProfileRef, stored: Record<string, unknown>, secrets: Partial<Record<SecretField, string | undefined>>): void;
  /** Removes every secret of the profile. */
  remove(profile: ProfileRef, stored: Record<string, unknown>): void;
}

const ALL_REMOVED = { accessToken: undefined, refreshToken: undefined, clientSecret: undefined };

/** The config file (mode 0600): the secrets are fields of the profile, as before keychains. */
export const fileStore: SecretStore = {
  kind: 'file',
  read(_profile, stored) {
    const out: Secrets = {};
    for (const f of SECRET_FIELDS) if (typeof stored[f] === 'string') out[f] = stored[f] as string;
    return out;
  },
  write(_profile, stored, secrets) {
    for (const f of SECRET_FIELDS) {
      if (!(f in secrets)) continue;
      if (secrets[f] === undefined) delete stored[f];
      else stored[f] = secrets[f];
    }
    delete stored.secretStore;
    delete stored.keychainEntries;
  },
  remove(profile, stored) {
    fileStore.write(profile, stored, ALL_REMOVED);
  },
};

/** Keychain entries are named by service "crmctl" and account "<profile>/<field>@<config dir>". */
const SERVICE = 'crmctl';

export class KeychainStore implements SecretStore {
  readonly kind = 'keychain' as const;
  constructor(private readonly Entry: EntryConstructor) {}

  private entry(profile: ProfileRef, field: SecretField): KeyringEntry {
    return new this.Entry(SERVICE, keychainAccount(profile, field));
  }

  read(profile: ProfileRef, _stored?: Record<string, unknown>): Secrets {
    const out: Secrets = {};
    for (const f of SECRET_FIELDS) {
      const v = keychainCall(() => this.entry(profile, f).getPassword(), `read the ${f} of profile "${profile.name}"`);
      if (v !== null && v !== undefined) out[f] = v;
    }
    return out;
  }

  write(profile: ProfileRef, stored: Record<string, unknown>, secrets: Partial<Record<SecretField, string | undefined>>): void {
    for (const f of SECRET_FIELDS) {
      if (!(f in secrets)) continue;
      const v = secrets[f];
      const e = this.entry(profile, f);
      keychainCall(() => (v === undefined ? e.deletePassword() : e.setPassword(v)), `${v === undefined ? 'remove' : 'store'} the ${f} of profile "${profile.name}"`);
    }
    // The file keeps only markers: which store to read the secrets from, and under which key.
    for (const f of SECRET_FIELDS) delete stored[f];
    stored.secretStore = 'keychain';
    if (profile.dir) stored.keychainEntries = BY_CONFIG_DIR;
    else delete stored.keychainEntries;
  }

  remove(profile: ProfileRef, stored: Record<string, unknown>): void {
    this.write(profile, stored, ALL_REMOVED);
  }
}

/** The account of a profile's entry: "<profile>/<field>@<config dir>", or "<profile>/<field>" for an entry of earlier versions. */
export function keychainAccount(profile: ProfileRef, field: SecretField): string {
  return profile.dir ? `${profile.name}/${field}@${profile.dir}` : `${profile.name}/${field}`;
}

function keychainCall<T>(fn: () => T, what: string): T {
  try {
    return fn();
  } catch (err) {
    throw new CliError(
      `Could not ${what} in the OS keychain: ${err instanceof Error ? err.message : String(err)}.`,
      EXIT.ERROR,
      'Unlock the keychain (or start its service) and try again, or set CRMCTL_SECRET_STORE=file and log in again to keep the secrets in the config file (mode 0600).',
    );
  }
}

/** Why a keychain cannot be used, or the store itself. Decided once per process. */
let cached: Promise<KeychainStore | { why: string }> | undefined;
let cachedKey: string | undefined;

/**
 * The keychain, when the binding loads and a probe entry can be written and removed (Linux without a
 * Secret Service answers reads with "nothing" but refuses writes, so a read alone proves nothing).
 */
export function openKeychain(env: NodeJS.ProcessEnv): Promise<KeychainStore | { why: string }> {
  const key = env.CRMCTL_KEYCHAIN_DOUBLE ?? '';
  if (cached && cachedKey === key) return cached;
  cachedKey = key;
  cached = (async () => {
    // A Linux keychain is the Secret Service, reached over the session's D-Bus: without a session bus
    // (servers, CI, containers) there is none, and loading the native binding to learn it costs ~30 ms a run.
    if (!env.CRMCTL_KEYCHAIN_DOUBLE && process.platform === 'linux' && !env.DBUS_SESSION_BUS_ADDRESS) {
      return { why: 'no keychain answers (no D-Bus session, which the Secret Service needs)' };
    }
    let Entry: EntryConstructor;
    try {
      Entry = env.CRMCTL_KEYCHAIN_DOUBLE
        ? (await import('./keychain-double.js')).doubleEntry(env.CRMCTL_KEYCHAIN_DOUBLE)
        : ((await import('@napi-rs/keyring')) as unknown as { Entry: EntryConstructor }).Entry;
    } catch (err) {
      return { why: `the keychain binding (@napi-rs/keyring) is not installed or does not load here (${err instanceof Error ? err.message.split('\n')[0] : String(err)})` };
    }
    try {
      const probe = new Entry(SERVICE, '.probe');
      probe.setPassword('probe');
      probe.deletePassword();
    } catch (err) {
      return { why: `no keychain answers (${err instanceof Error ? err.message : String(err)})` };
    }
    return new KeychainStore(Entry);
  })();
  return cached;
}

/** Which store new secrets go to: CRMCTL_SECRET_STORE, else the keychain when it works, else the file. */
export async function chooseStore(env: NodeJS.ProcessEnv): Promise<SecretStore> {
  const forced = env.CRMCTL_SECRET_STORE || undefined;
  if (forced !== undefined && forced !== 'file' && forced !== 'keychain') {
    throw new CliError(`CRMCTL_SECRET_STORE: must be file or keychain (got ${JSON.stringify(forced)})`, EXIT.USAGE);
  }
  if (forced === 'file') return fileStore;
  const k = await openKeychain(env);
  if (k instanceof KeychainStore) return k;
  if (forced === 'keychain') throw new CliError(`CRMCTL_SECRET_STORE=keychain, but ${k.why}.`, EXIT.ERROR, 'Unset CRMCTL_SECRET_STORE (or set it to file) to keep the secrets in the config file (mode 0600).');
  return fileStore;
}

/** The keychain that holds a profile's secrets (it was available when they were stored). */
export async function keychainFor(env: NodeJS.ProcessEnv, profile: string): Promise<KeychainStore> {
  const k = await openKeychain(env);
  if (k instanceof KeychainStore) return k;
  throw new CliError(
    `The secrets of profile "${profile}" are in the OS keychain, but ${k.why}.`,
    EXIT.AUTH,
    `Unlock the keychain (or start its service), or log in again with CRMCTL_SECRET_STORE=file: crmctl auth login --profile ${profile}`,
  );
}
