import { chmodSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError, UsageError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { withFileLock } from '../fs/lock.js';
import { chooseStore, keychainFor, SECRET_FIELDS, type SecretStore } from './secret-store.js';

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

/** The stored profile with its secrets, from whichever store holds them. */
async function withSecrets(env: NodeJS.ProcessEnv, name: string, stored: Profile): Promise<Profile> {
  if (stored.secretStore !== 'keychain') return { ...stored };
  const k = await keychainFor(env, name);
  return { ...stored, ...k.read(name, stored as unknown as Record<string, unknown>) };
}

export async function getProfile(name: string, env: NodeJS.ProcessEnv): Promise<Profile | undefined> {
  const p = readStore(env).profiles[name];
  return p ? withSecrets(env, name, p) : undefined;
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
 * CRMCTL_SECRET_STORE=file), else the store chooseStore picks (a file profile moves to a keychain that works).
 */
async function targetStore(env: NodeJS.ProcessEnv, name: string, before: Profile | undefined): Promise<SecretStore> {
  if (before?.secretStore === 'keychain' && env.CRMCTL_SECRET_STORE !== 'file') return keychainFor(env, name);
  return chooseStore(env);
}

/**
 * Writes the full profile `next` (secrets included) as `data.profiles[name]`: its secrets into the
 * target store, the rest (and the store's marker) into the file. Runs under the config lock.
 */
async function place(env: NodeJS.ProcessEnv, data: StoreData, name: string, next: Record<string, unknown>): Promise<void> {
  const before = data.profiles[name];
  const target = await targetStore(env, name, before);
  const rest: Record<string, unknown> = { ...next };
  for (const f of SECRET_FIELDS) delete rest[f];
  delete rest.secretStore;
  target.write(name, rest, Object.fromEntries(SECRET_FIELDS.map((f) => [f, typeof next[f] === 'string' ? (next[f] as string) : undefined])));
  if (target.kind === 'file' && before?.secretStore === 'keychain') {
    // Forced back to the file: the keychain's copies go (best effort; the file now holds the secrets).
    try {
      (await keychainFor(env, name)).remove(name, {});
    } catch {
      // an unreachable keychain keeps stale entries that nothing reads
    }
  }
  data.profiles[name] = rest as unknown as Profile;
}

/**
 * Moves a profile's secrets from the config file to the keychain when one works (and
 * CRMCTL_SECRET_STORE does not say file). True when it moved them: the caller says so, once.
 */
export async function migrateSecrets(name: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const stored = readStore(env).profiles[name] as unknown as Record<string, unknown> | undefined;
  if (!stored || stored.secretStore === 'keychain' || !SECRET_FIELDS.some((f) => typeof stored[f] === 'string')) return false;
  if ((await chooseStore(env)).kind !== 'keychain') return false;
  return updateStore(env, async (data) => {
    const cur = data.profiles[name] as unknown as Record<string, unknown> | undefined;
    if (!cur || cur.secretStore === 'keychain') return false;
    await place(env, data, name, cur);
    return true;
  });
}

/**
 * Merges `partial` into the profile (creating it). A key present with value `undefined`
 * is removed (e.g. `{ accessToken: undefined }` on logout). Returns the stored profile.
 */
export async function saveProfile(name: string, partial: Partial<Profile>, env: NodeJS.ProcessEnv): Promise<Profile> {
  validateProfileName(name);
  return updateStore(env, async (data) => {
    const before = data.profiles[name];
    const next: Record<string, unknown> = { ...(before ? await withSecrets(env, name, before) : {}) };
    for (const [k, v] of Object.entries(partial)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    if (next.callbackPort === undefined) next.callbackPort = DEFAULT_CALLBACK_PORT;
    await place(env, data, name, next);
    return { ...(next as unknown as Profile) };
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
    const current = stored ? await withSecrets(env, name, stored) : undefined;
    const change = fn(current ? { ...current } : undefined);
    if (!change) return current ? { ...current } : undefined;
    const next: Record<string, unknown> = { ...(current ?? {}) };
    for (const [k, v] of Object.entries(change)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    await place(env, data, name, next);
    return { ...(next as unknown as Profile) };
  });
}

export async function setDefaultProfile(name: string, env: NodeJS.ProcessEnv): Promise<void> {
  validateProfileName(name);
  await updateStore(env, (data) => {
    data.defaultProfile = name;
  });
}

/** Removes the profile; returns false when it did not exist. Clears the default if it pointed there. */
export async function removeProfile(name: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  return updateStore(env, async (data) => {
    if (!(name in data.profiles)) return false;
    if (data.profiles[name]!.secretStore === 'keychain') (await keychainFor(env, name)).remove(name, {});
    delete data.profiles[name];
    if (data.defaultProfile === name) delete data.defaultProfile;
    return true;
  });
}

/** Token fields, for clearing on logout. */
export const TOKEN_FIELDS = ['accessToken', 'refreshToken', 'expiresAt', 'scopes', 'user'] as const;
