// Authentication of API requests: an OAuth access token issued by this sandbox to
// its own client (Authorization: Bearer), or a user's API token (x-api-token).
// The API token wins when both are sent, as the official SDK's README says.
import type { IncomingHttpHeaders } from 'node:http';
import { unauthorized } from './http/errors.js';
import { checkAccessToken } from './oauth/tokens.js';
import type { SandboxState } from './store/state.js';
import type { User } from './store/records.js';

export interface Caller { user: User; scopes: string[] | null; via: 'bearer' | 'api_token' }

/** Which credential the request carried (for the request log), without checking it. */
export function authKind(h: IncomingHttpHeaders): 'bearer' | 'api_token' | 'none' {
  if (typeof h['x-api-token'] === 'string' && h['x-api-token'] !== '') return 'api_token';
  if (typeof h.authorization === 'string' && /^bearer\s/i.test(h.authorization)) return 'bearer';
  return 'none';
}

export function authenticate(h: IncomingHttpHeaders, state: SandboxState, clientId: string, now = state.now()): Caller {
  const apiToken = h['x-api-token'];
  if (typeof apiToken === 'string' && apiToken !== '') {
    const t = state.apiTokens.get(apiToken);
    const user = t ? state.users.get(t.user_id) : undefined;
    if (!user?.active_flag) throw unauthorized();
    return { user, scopes: null, via: 'api_token' };
  }
  const auth = h.authorization;
  const m = typeof auth === 'string' ? /^bearer\s+(\S+)\s*$/i.exec(auth) : null;
  if (!m) throw unauthorized();
  const check = checkAccessToken(state, m[1]!, clientId, now);
  if (!check.ok) throw unauthorized();
  const user = state.users.get(check.token.user_id);
  if (!user?.active_flag) throw unauthorized();
  return { user, scopes: check.token.scopes, via: 'bearer' };
}
