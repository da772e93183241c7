import { chmodSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { z } from 'zod';
import { CliError, UsageError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { withFileLock } from './lock.js';

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
}

export interface StoreData {
  defaultProfile?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
export const DEFAULT_CALLBACK_PORT = 8250;
const CONFIG_NAME = 'config';

const userSchema = z.looseObject({ id: z.number(), name: z.string(), email: z.string() });
const profileSchema = z.looseObject({
  authUrl: z.string().optional(),
  clientId: z.string().optional(),
  clientSecret: z.string().optional(),
  callbackPort: z.number().int().optional(),
  apiDomain: z.string().optional(),
  accessToken: z.string().optional(),
  refreshToken: z.string().optional(),
  expiresAt: z.number().optional(),
  scopes: z.array(z.string()).optional(),
  user: userSchema.optional(),
  kind: z.enum(['oauth', 'sandbox']).optional(),
});
const storeSchema = z.looseObject({
  defaultProfile: z.string().optional(),
  profiles: z.record(z.string(), profileSchema).optional(),
});

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

function openConf(env: NodeJS.ProcessEnv, writing: boolean): Conf<Record<string, unknown>> {
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
  const parsed = storeSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unexpected shape';
    const file = configPath(env);
    throw new CliError(`The config file ${file} has an unexpected shape (${where}).`, EXIT.ERROR, `Fix or delete ${file}, then log in again with \`crmctl auth login\`.`);
  }
  const data = parsed.data as unknown as StoreData;
  return { ...data, profiles: { ...(data.profiles ?? {}) } };
}

/** Reads the whole store (lock-free: writes are atomic renames, so a reader never sees half a file). */
export function readStore(env: NodeJS.ProcessEnv): StoreData {
  const conf = openConf(env, false);
  let raw: unknown;
  try {
    raw = conf.store;
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
    writeStore(env, data);
    return result;
  });
}

function writeStore(env: NodeJS.ProcessEnv, data: StoreData): void {
  const conf = openConf(env, true);
  const clean: Record<string, unknown> = { ...data, profiles: data.profiles };
  if (clean.defaultProfile === undefined) delete clean.defaultProfile;
  try {
    conf.store = JSON.parse(JSON.stringify(clean)) as Record<string, unknown>;
    chmodSync(conf.path, 0o600);
  } catch (err) {
    throw storeError(env, err, true);
  }
}

/** flag > env CRMCTL_PROFILE > stored default profile > "default". */
export async function resolveProfileName(env: NodeJS.ProcessEnv, flag: string | undefined): Promise<string> {
  if (flag) return validateProfileName(flag);
  if (env.CRMCTL_PROFILE) return validateProfileName(env.CRMCTL_PROFILE);
  const stored = readStore(env).defaultProfile;
  return stored || DEFAULT_PROFILE;
}

export async function getProfile(name: string, env: NodeJS.ProcessEnv): Promise<Profile | undefined> {
  const p = readStore(env).profiles[name];
  return p ? { ...p } : undefined;
}

export async function listProfiles(env: NodeJS.ProcessEnv): Promise<Array<{ name: string; profile: Profile; isDefault: boolean }>> {
  const data = readStore(env);
  const def = data.defaultProfile || DEFAULT_PROFILE;
  return Object.keys(data.profiles)
    .sort()
    .map((name) => ({ name, profile: { ...data.profiles[name]! }, isDefault: name === def }));
}

/**
 * Merges `partial` into the profile (creating it). A key present with value `undefined`
 * is removed (e.g. `{ accessToken: undefined }` on logout). Returns the stored profile.
 */
export async function saveProfile(name: string, partial: Partial<Profile>, env: NodeJS.ProcessEnv): Promise<Profile> {
  validateProfileName(name);
  return updateStore(env, (data) => {
    const next: Record<string, unknown> = { ...(data.profiles[name] ?? {}) };
    for (const [k, v] of Object.entries(partial)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    if (next.callbackPort === undefined) next.callbackPort = DEFAULT_CALLBACK_PORT;
    data.profiles[name] = next as unknown as Profile;
    return { ...(next as unknown as Profile) };
  });
}

/** Conditional update: `fn` sees the current stored profile and returns the change, or undefined for none. */
export async function updateProfile(
  name: string,
  env: NodeJS.ProcessEnv,
  fn: (current: Profile | undefined) => Partial<Profile> | undefined,
): Promise<Profile | undefined> {
  return updateStore(env, (data) => {
    const current = data.profiles[name];
    const change = fn(current ? { ...current } : undefined);
    if (!change) return current ? { ...current } : undefined;
    const next: Record<string, unknown> = { ...(current ?? {}) };
    for (const [k, v] of Object.entries(change)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    data.profiles[name] = next as unknown as Profile;
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
  return updateStore(env, (data) => {
    if (!(name in data.profiles)) return false;
    delete data.profiles[name];
    if (data.defaultProfile === name) delete data.defaultProfile;
    return true;
  });
}

/** Token fields, for clearing on logout. */
export const TOKEN_FIELDS = ['accessToken', 'refreshToken', 'expiresAt', 'scopes', 'user'] as const;
