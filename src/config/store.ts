import { chmodSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CliError, UsageError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { withFileLock } from '../fs/lock.js';
import { BY_CONFIG_DIR, chooseStore, fileStore, keychainFor, KeychainStore, openKeychain, SECRET_FIELDS, type ProfileRef, type SecretStore } from './secret-store.js';

export interface ProfileUser {
  id: number;
  name: string;
  email: string;
}

/** One named set of settings and credentials. Tokens are absent when logged out. */
export interface Profile {
  /** OAuth server, e.g. https://oauth.example.com or the sandbox URL. */
  authUrl: string;
  clientId: string;
  clientSecret?: string;
  /** Loopback port of the registered callback http://127.0.0.1:PORT/callback. */
  callbackPort: number;
  /** Company API address from the token response (`api_domain`). */
  apiDomain?: string;
  accessToken?: string;
  refreshToken?: string;
  /** Access-token expiry, epoch ms. */
  expiresAt?: number;
  scopes?: string[];
  user?: ProfileUser;
  kind?: 'oauth' | 'sandbox';
  /** Where the secrets (tokens, client secret) are: 'keychain', or absent for this file. */
  secretStore?: 'keychain';
  /** Keychain entries keyed by the config directory too; absent on entries of earlier versions (moved on first use). */
  keychainEntries?: typeof BY_CONFIG_DIR;
}

export interface StoreData {
  defaultProfile?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
export const DEFAULT_CALLBACK_PORT = 8250;
const CONFIG_NAME = 'config';

/** Light shape check (no schema library: reading the config is on every command's start-up path). */
const PROFILE_FIELDS: Record<string, (v: unknown) => boolean> = {
  authUrl: isString,
  clientId: isString,
  clientSecret: isString,
  callbackPort: (v) => Number.isInteger(v),
  apiDomain: isString,
  accessToken: isString,
  refreshToken: isString,
  expiresAt: (v) => typeof v === 'number' && Number.isFinite(v),
  scopes: (v) => Array.isArray(v) && v.every(isString),
  user: (v) => isObject(v) && typeof v.id === 'number',
  kind: (v) => v === 'oauth' || v === 'sandbox',
  secretStore: (v) => v === 'keychain',
  keychainEntries: (v) => v === BY_CONFIG_DIR,
};

function isString(v: unknown): v is string {
  return typeof v === 'string';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The first problem in the file's shape, as `path: what`, or undefined when it is fine. */
function shapeProblem(raw: unknown): string | undefined {
  if (!isObject(raw)) return '(root): expected an object';
  if (raw.defaultProfile !== undefined && !isString(raw.defaultProfile)) return 'defaultProfile: expected a string';
  if (raw.profiles === undefined) return undefined;
  if (!isObject(raw.profiles)) return 'profiles: expected an object';
  for (const [name, p] of Object.entries(raw.profiles)) {
    if (!isObject(p)) return `profiles.${name}: expected an object`;
    for (const [k, check] of Object.entries(PROFILE_FIELDS)) {
      if (p[k] !== undefined && !check(p[k])) return `profiles.${name}.${k}: invalid value ${JSON.stringify(p[k])?.slice(0, 40)}`;
    }
  }
  return undefined;
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function validateProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`invalid profile name "${name}": use letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit)`);
  }
  return name;
}

/** Directory of the config file: CRMCTL_CONFIG_DIR, else the platform's config dir for "crmctl". */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.CRMCTL_CONFIG_DIR) return env.CRMCTL_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'crmctl');
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'crmctl', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'crmctl');
}

export function configPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), `${CONFIG_NAME}.json`);
}

/** Lock serialising read-modify-write of the config file across processes. */
export function configLockPath(env: NodeJS.ProcessEnv): string {
  return `${configPath(env)}.lock`;
}

function storeError(env: NodeJS.ProcessEnv, err: unknown, writing: boolean): CliError {
  if (err instanceof CliError) return err;
  const file = configPath(env);
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  if (err instanceof SyntaxError) {
    return new CliError(
      `The config file ${file} is not valid JSON (${err.message}).`,
      EXIT.ERROR,
      `Fix or delete ${file} (deleting it removes all profiles; log in again with \`crmctl auth login\`).`,
    );
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new CliError(
      `Cannot ${writing ? 'write' : 'read'} the config file ${file} (${code}).`,
      EXIT.ERROR,
      `Make ${configDir(env)} and ${file} readable and writable by you (chmod u+rw), or set CRMCTL_CONFIG_DIR to a writable directory.`,
    );
  }
  if (code === 'EISDIR' || code === 'ENOTDIR') {
    return new CliError(`The config path ${file} is not a regular file (${code}).`, EXIT.ERROR, `Remove it, or set CRMCTL_CONFIG_DIR to another directory.`);
  }
  const msg = err instanceof Error ? err.message : String(err);
  return new CliError(`Cannot ${writing ? 'write' : 'read'} the config file ${file}: ${msg}`, EXIT.ERROR, `Check ${file}, or set CRMCTL_CONFIG_DIR to another directory.`);
}

async function openConf(env: NodeJS.ProcessEnv, writing: boolean): Promise<import('conf').default<Record<string, unknown>>> {
  const { default: Conf } = await import('conf');
  try {
    return new Conf<Record<string, unknown>>({
      cwd: configDir(env),
      configName: CONFIG_NAME,
      projectName: 'crmctl',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      serialize: (v) => `${JSON.stringify(v, null, 2)}\n`,
    });
  } catch (err) {
    throw storeError(env, err, writing);
  }
}

function parseStore(env: NodeJS.ProcessEnv, raw: unknown): StoreData {
  const problem = shapeProblem(raw);
  if (problem) {
    const file = configPath(env);
    throw new CliError(`The config file ${file} has an unexpected shape (${problem}).`, EXIT.ERROR, `Fix or delete ${file}, then log in again with \`crmctl auth login\`.`);
  }
  const data = raw as StoreData;
  return { ...data, profiles: { ...(data.profiles ?? {}) } };
}

/**
 * Reads the whole store. Lock-free: conf writes by atomic rename, so a reader never sees half a
 * file. Plain fs + JSON.parse (what conf does) so that commands that only read pay no conf import.
 */
export function readStore(env: NodeJS.ProcessEnv): StoreData {
  let text: string;
  try {
    text = readFileSync(configPath(env), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw storeError(env, err, false);
  }
  let raw: unknown;
  try {
    raw = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw storeError(env, err, false);
  }
  return parseStore(env, raw);
}

/**
 * Read-modify-write under the config lock, so concurrent crmctl processes never lose each
 * other's updates; the file is written atomically and chmod 0600 after every write.
 */
export async function updateStore<T>(env: NodeJS.ProcessEnv, fn: (data: StoreData) => T | Promise<T>): Promise<T> {
  return withFileLock(configLockPath(env), async () => {
    const data = readStore(env);
    const result = await fn(data);
    await writeStore(env, data);
    return result;
  });
}

async function writeStore(env: NodeJS.ProcessEnv, data: StoreData): Promise<void> {
  const conf = await openConf(env, true);
  const clean: Record<string, unknown> = { ...data, profiles: data.profiles };
  if (clean.defaultProfile === undefined) delete clean.defaultProfile;
  try {
    conf.store = JSON.parse(JSON.stringify(clean)) as Record<string, unknown>;
    chmodSync(conf.path, 0o600);
  } catch (err) {
    throw storeError(env, err, true);
  }
}

/**
 * The one rule for which profile a call uses: --profile > env CRMCTL_PROFILE > the stored default
 * (`auth profiles use`) > "default". A config file that cannot be read has no stored default; reading
 * the profile itself reports that file's problem where one is needed.
 */
export async function resolveProfileName(env: NodeJS.ProcessEnv, flag: string | undefined): Promise<string> {
  if (flag) return validateProfileName(flag);
  if (env.CRMCTL_PROFILE) return validateProfileName(env.CRMCTL_PROFILE);
  let stored: string | undefined;
  try {
    stored = readStore(env).defaultProfile;
  } catch {
    stored = undefined;
  }
  return stored || DEFAULT_PROFILE;
}

/**
 * The keychain key of a profile of this config directory: the directory resolved (a relative
 * CRMCTL_CONFIG_DIR or a symbolic link names the same entries from anywhere).
 */
export function profileRef(env: NodeJS.ProcessEnv, name: string): ProfileRef {
  const dir = configDir(env);
  let canonical: string;
  try {
    canonical = realpathSync(dir);
  } catch {
    canonical = resolve(dir);
  }
  return { name, dir: canonical };
}

/** Where a stored keychain profile's entries are: keyed by this config directory, or (earlier versions) by the name alone. */
function storedRef(env: NodeJS.ProcessEnv, name: string, stored: Profile): ProfileRef {
  return stored.keychainEntries === BY_CONFIG_DIR ? profileRef(env, name) : { name };
}

/** The stored profile with its secrets, from whichever store holds them. */
async function withSecrets(env: NodeJS.ProcessEnv, name: string, stored: Profile): Promise<Profile> {
  if (stored.secretStore !== 'keychain') return { ...stored };
  const k = await keychainFor(env, name);
  return { ...stored, ...k.read(storedRef(env, name, stored), stored as unknown as Record<string, unknown>) };
}

/** A profile as read for a change: with its secrets, or without them and the reason when their keychain is unavailable. */
interface ReadProfile {
  profile: Profile;
  /** Why the secrets could not be read (their keychain is locked or gone); the profile then has none. */
  secretsUnavailable?: CliError;
}

async function readLeniently(env: NodeJS.ProcessEnv, name: string, stored: Profile): Promise<ReadProfile> {
  try {
    return { profile: await withSecrets(env, name, stored) };
  } catch (err) {
    if (!(err instanceof CliError) || stored.secretStore !== 'keychain') throw err;
    return { profile: { ...stored }, secretsUnavailable: err };
  }
}

export async function getProfile(name: string, env: NodeJS.ProcessEnv): Promise<Profile | undefined> {
  const p = readStore(env).profiles[name];
  return p ? withSecrets(env, name, p) : undefined;
}

/**
 * The profile for logging out, removing or logging in again: a keychain profile whose keychain is
 * locked or gone is read without its secrets (and says why) instead of failing, since those are the
 * ways out of such a state (docs/auth.md).
 */
export async function readProfile(name: string, env: NodeJS.ProcessEnv): Promise<ReadProfile | undefined> {
  const p = readStore(env).profiles[name];
  return p ? readLeniently(env, name, p) : undefined;
}

export async function listProfiles(env: NodeJS.ProcessEnv): Promise<Array<{ name: string; profile: Profile; isDefault: boolean }>> {
  const data = readStore(env);
  const def = data.defaultProfile || DEFAULT_PROFILE;
  const names = Object.keys(data.profiles).sort();
  // A listing still lists when the keychain is locked: such a profile then shows without its secrets.
  const read = (name: string) => withSecrets(env, name, data.profiles[name]!).catch(() => ({ ...data.profiles[name]! }));
  return Promise.all(names.map(async (name) => ({ name, profile: await read(name), isDefault: name === def })));
}

/**
 * Where a profile's secrets go on a write: the keychain that holds them already (unless
 * CRMCTL_SECRET_STORE=file), else the store chooseStore picks (a file profile moves to a keychain
 * that works). When that keychain failed to read them (`unavailable`; the write replaces every
 * secret), the file, unless CRMCTL_SECRET_STORE=keychain insists.
 */
async function targetStore(env: NodeJS.ProcessEnv, name: string, before: Profile | undefined, unavailable: CliError | undefined): Promise<SecretStore> {
  if (unavailable) {
    if (env.CRMCTL_SECRET_STORE === 'keychain') throw unavailable;
    return fileStore;
  }
  if (before?.secretStore === 'keychain' && env.CRMCTL_SECRET_STORE !== 'file') return keychainFor(env, name);
  return chooseStore(env);
}

/**
 * Writes the full profile `next` (secrets included) as `data.profiles[name]`: its secrets into the
 * target store (a keychain under this config directory's key), the rest (and the store's markers)
 * into the file. Entries the secrets leave behind (the file was chosen, or entries of earlier
 * versions) are removed, best effort. Runs under the config lock.
 */
async function place(env: NodeJS.ProcessEnv, data: StoreData, name: string, next: Record<string, unknown>, unavailable?: CliError): Promise<void> {
  const before = data.profiles[name];
  const target = await targetStore(env, name, before, unavailable);
  const rest: Record<string, unknown> = { ...next };
  for (const f of SECRET_FIELDS) delete rest[f];
  delete rest.secretStore;
  delete rest.keychainEntries;
  const ref = profileRef(env, name);
  target.write(ref, rest, Object.fromEntries(SECRET_FIELDS.map((f) => [f, typeof next[f] === 'string' ? (next[f] as string) : undefined])));
  if (before?.secretStore === 'keychain' && (target.kind === 'file' || before.keychainEntries !== BY_CONFIG_DIR)) {
    try {
      (await keychainFor(env, name)).remove(storedRef(env, name, before), {});
    } catch {
      // an unreachable keychain keeps stale entries that nothing reads
    }
  }
  data.profiles[name] = rest as unknown as Profile;
}

/**
 * First use of a profile whose secrets are not where this version keeps them: in the config file
 * while a keychain works, or in keychain entries of earlier versions (keyed by the profile name
 * alone, so every config directory with that profile name shared them). Moves them, once, and
 * returns what to tell the user; undefined when nothing moved.
 */
export async function migrateSecrets(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const stored = readStore(env).profiles[name];
  const why = stored && (await needsMove(env, stored));
  if (!why) return undefined;
  return updateStore(env, async (data) => {
    const cur = data.profiles[name];
    if (!cur || (await needsMove(env, cur)) !== why) return undefined;
    const full = (await withSecrets(env, name, cur)) as unknown as Record<string, unknown>;
    await place(env, data, name, full);
    if (why === 'file') return `moved the secrets of profile ${name} (tokens, client secret) from the config file to the OS keychain`;
    // Entries of earlier versions that hold nothing (logged out) move without a word.
    if (!SECRET_FIELDS.some((f) => typeof full[f] === 'string')) return undefined;
    return `moved the OS keychain entries of profile ${name} to entries of its config directory ${profileRef(env, name).dir} (before, every config directory with a profile "${name}" shared one set); another config directory with a profile "${name}" must log in again`;
  });
}

/** Why a profile's secrets must move: 'file' to a keychain that works, 'shared' from entries of earlier versions. */
async function needsMove(env: NodeJS.ProcessEnv, p: Profile): Promise<'file' | 'shared' | undefined> {
  if (env.CRMCTL_SECRET_STORE === 'file') return undefined;
  if (p.secretStore === 'keychain') {
    // A locked keychain: nothing moves now; reading the profile says what to do.
    return p.keychainEntries !== BY_CONFIG_DIR && (await openKeychain(env)) instanceof KeychainStore ? 'shared' : undefined;
  }
  const stored = p as unknown as Record<string, unknown>;
  if (!SECRET_FIELDS.some((f) => typeof stored[f] === 'string')) return undefined;
  return (await chooseStore(env)).kind === 'keychain' ? 'file' : undefined;
}

/** Applies `change` to `current`: a key present with value `undefined` is removed. */
function merged(current: Profile | Record<string, never>, change: Partial<Profile>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(change)) {
    if (v === undefined) delete next[k];
    else next[k] = v;
  }
  return next;
}

/**
 * The profile before a change, with its secrets. When their keychain is unavailable the change
 * goes ahead only if it sets or clears every secret (a fresh login, forgetting them): it needs none
 * of the old ones. Any other change fails as reading would.
 */
async function beforeChange(env: NodeJS.ProcessEnv, name: string, stored: Profile | undefined, change: Partial<Profile>): Promise<ReadProfile | undefined> {
  if (!stored) return undefined;
  const read = await readLeniently(env, name, stored);
  if (read.secretsUnavailable && !SECRET_FIELDS.every((f) => f in change)) throw read.secretsUnavailable;
  return read;
}

/**
 * Merges `partial` into the profile (creating it). A key present with value `undefined`
 * is removed (e.g. `{ accessToken: undefined }` on logout). Returns the stored profile.
 */
export async function saveProfile(name: string, partial: Partial<Profile>, env: NodeJS.ProcessEnv): Promise<Profile> {
  validateProfileName(name);
  return updateStore(env, async (data) => {
    const before = await beforeChange(env, name, data.profiles[name], partial);
    const next = merged(before?.profile ?? {}, partial);
    if (next.callbackPort === undefined) next.callbackPort = DEFAULT_CALLBACK_PORT;
    await place(env, data, name, next, before?.secretsUnavailable);
    return stripMarkers(next);
  });
}

/** Conditional update: `fn` sees the current stored profile and returns the change, or undefined for none. */
export async function updateProfile(
  name: string,
  env: NodeJS.ProcessEnv,
  fn: (current: Profile | undefined) => Partial<Profile> | undefined,
): Promise<Profile | undefined> {
  return updateStore(env, async (data) => {
    const stored = data.profiles[name];
    const read = stored ? await readLeniently(env, name, stored) : undefined;
    const change = fn(read ? { ...read.profile } : undefined);
    if (read?.secretsUnavailable && !(change && SECRET_FIELDS.every((f) => f in change))) throw read.secretsUnavailable;
    if (!change) return read ? { ...read.profile } : undefined;
    const next = merged(read?.profile ?? {}, change);
    await place(env, data, name, next, read?.secretsUnavailable);
    return stripMarkers(next);
  });
}

/** The profile as callers see it after a write (the store's markers are the file's business). */
function stripMarkers(p: Record<string, unknown>): Profile {
  const { secretStore: _s, keychainEntries: _k, ...rest } = p;
  return rest as unknown as Profile;
}

export async function setDefaultProfile(name: string, env: NodeJS.ProcessEnv): Promise<void> {
  validateProfileName(name);
  await updateStore(env, (data) => {
    data.defaultProfile = name;
  });
}

/**
 * Removes the profile; returns false when it did not exist. Clears the default if it pointed there.
 * Keychain entries that cannot be removed (a locked or missing keychain) do not stop the removal:
 * `warn` is told, and the entries stay behind where nothing reads them.
 */
export async function removeProfile(name: string, env: NodeJS.ProcessEnv, warn: (line: string) => void = () => {}): Promise<boolean> {
  return updateStore(env, async (data) => {
    const p = data.profiles[name];
    if (!p) return false;
    if (p.secretStore === 'keychain') {
      try {
        (await keychainFor(env, name)).remove(storedRef(env, name, p), {});
      } catch (err) {
        warn(`could not remove the OS keychain entries of profile ${name} (${err instanceof Error ? err.message.replace(/\.$/, '') : String(err)}); they stay in the keychain, where nothing reads them`);
      }
    }
    delete data.profiles[name];
    if (data.defaultProfile === name) delete data.defaultProfile;
    return true;
  });
}

/** Token fields, for clearing on logout. */
export const TOKEN_FIELDS = ['accessToken', 'refreshToken', 'expiresAt', 'scopes', 'user'] as const;
