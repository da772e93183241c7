import { statSync } from 'node:fs';
import { envCredentialKind, loginHint } from '../../auth/credentials.js';
import { configPath, getProfile, type Profile } from '../../config/store.js';
import { fail, pass, skip, type Finding } from './finding.js';

/** Local facts the checks share: which credentials the next command would use. */
export interface Setup {
  profileName: string;
  profile: Profile | undefined;
  /** The environment variable whose credentials override the profile, if any. */
  envOverride: string | undefined;
  /** Problem reading the config file (bad JSON, permissions), if any. */
  configError?: string;
}

export async function readSetup(env: NodeJS.ProcessEnv, profileName: string): Promise<Setup> {
  const kind = envCredentialKind(env);
  const envOverride = kind === 'access_token' ? 'CRMCTL_ACCESS_TOKEN' : kind === 'api_token' ? 'CRMCTL_API_TOKEN' : kind === 'refresh_token' ? 'CRMCTL_REFRESH_TOKEN' : undefined;
  try {
    return { profileName, profile: await getProfile(profileName, env), envOverride };
  } catch (err) {
    return { profileName, profile: undefined, envOverride, configError: err instanceof Error ? err.message : String(err) };
  }
}

/** The config file holds refresh tokens and the client secret: only its owner may read it. */
export function checkConfigFile(env: NodeJS.ProcessEnv, setup: Setup): Finding {
  const title = 'Config file';
  const file = configPath(env);
  if (setup.configError) return fail('config-file', title, setup.configError, `Fix or delete ${file}, then log in again: crmctl auth login --profile ${setup.profileName}`);
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return skip('config-file', title, `no config file at ${file} (nothing stored yet)`);
    return fail('config-file', title, `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, `Make it readable by you: chmod 600 ${file}`);
  }
  const octal = mode.toString(8).padStart(4, '0');
  if (mode !== 0o600) return fail('config-file', title, `${file} has mode ${octal}; it holds tokens and the client secret, so only you may read it`, `chmod 600 ${file}`);
  return pass('config-file', title, `${file} is private (0600)`);
}

export function checkCredentials(setup: Setup): Finding {
  const title = 'Credentials';
  if (setup.envOverride) return pass('credentials', title, `${setup.envOverride} from the environment (overrides profile ${setup.profileName})`);
  const p = setup.profile;
  if (!p) return fail('credentials', title, `there is no profile "${setup.profileName}"`, loginHint(setup.profileName));
  if (!p.accessToken) return fail('credentials', title, `profile "${setup.profileName}" is not logged in`, loginHint(setup.profileName));
  const who = p.user ? ` as ${p.user.name || p.user.email}` : '';
  return pass('credentials', title, `profile "${setup.profileName}"${who}`);
}

/** Expired is fine while a refresh is possible; without one the next command fails. */
export function checkTokenExpiry(setup: Setup, env: NodeJS.ProcessEnv, now = Date.now()): Finding {
  const title = 'Token expiry';
  if (setup.envOverride === 'CRMCTL_ACCESS_TOKEN' || setup.envOverride === 'CRMCTL_API_TOKEN') {
    return skip('token-expiry', title, `${setup.envOverride} carries no expiry; the API check below shows whether it is accepted`);
  }
  if (setup.envOverride === 'CRMCTL_REFRESH_TOKEN') return skip('token-expiry', title, 'a fresh access token is obtained from CRMCTL_REFRESH_TOKEN on every run');
  const p = setup.profile;
  if (!p?.accessToken) return skip('token-expiry', title, 'not logged in');
  if (p.expiresAt === undefined) return pass('token-expiry', title, 'the stored token has no expiry');
  const secs = Math.round((p.expiresAt - now) / 1000);
  const refreshable = Boolean(p.refreshToken && p.authUrl && p.clientId && (p.clientSecret || env.CRMCTL_CLIENT_SECRET));
  if (secs > 0) return pass('token-expiry', title, `access token valid for ${human(secs)} (until ${new Date(p.expiresAt).toISOString()})${refreshable ? '; refreshable' : '; no refresh possible after that'}`);
  if (refreshable) return pass('token-expiry', title, `access token expired ${human(-secs)} ago; the next command refreshes it`);
  return fail('token-expiry', title, `access token expired ${human(-secs)} ago and cannot be refreshed (no refresh token, auth URL or client secret)`, loginHint(setup.profileName));
}

export function human(secs: number): string {
  if (secs < 120) return `${secs} s`;
  if (secs < 7200) return `${Math.round(secs / 60)} min`;
  if (secs < 172_800) return `${Math.round(secs / 3600)} h`;
  return `${Math.round(secs / 86_400)} days`;
}
