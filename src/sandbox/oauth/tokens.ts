// Issuing and checking OAuth tokens. Tokens live in the state (collection
// oauthTokens) so a sandbox restarted on the same data file keeps its logins.
import { randomBytes } from 'node:crypto';
import type { SandboxState } from '../store/state.js';
import type { OAuthToken } from '../store/records.js';

/** Refresh tokens expire when unused for 60 days (the vendor's documents). */
export const REFRESH_IDLE_MS = 60 * 24 * 3600 * 1000;
/** A rotated refresh token stays usable this long, so two racing refreshes both succeed. */
export const ROTATION_GRACE_MS = 10_000;

export interface TokenPair { access_token: string; refresh_token: string; expires_in: number; scope: string; access: OAuthToken }

export function issueTokenPair(
  state: SandboxState,
  o: { clientId: string; userId: number; scopes: string[]; lifetimeSec: number; now?: number },
): TokenPair {
  const now = o.now ?? state.now();
  // Formats follow the spec examples: access "v1u:..." opaque, refresh "<company>:<user>:<hex>".
  const access = `v1u:${randomBytes(24).toString('base64url')}`;
  const refresh = `${state.company.id}:${o.userId}:${randomBytes(20).toString('hex')}`;
  const at = state.oauthTokens.insert({
    id: access, kind: 'access', client_id: o.clientId, user_id: o.userId, scopes: [...o.scopes],
    expires_at: now + o.lifetimeSec * 1000, revoked: false, pair: refresh, issued_at: now,
  });
  state.oauthTokens.insert({
    id: refresh, kind: 'refresh', client_id: o.clientId, user_id: o.userId, scopes: [...o.scopes],
    expires_at: now + REFRESH_IDLE_MS, revoked: false, grace_until: null, pair: access, issued_at: now,
  });
  pruneExpired(state, now);
  return { access_token: access, refresh_token: refresh, expires_in: o.lifetimeSec, scope: o.scopes.join(','), access: at };
}

/** Drop long-dead tokens so the state file does not grow without bound. */
function pruneExpired(state: SandboxState, now: number): void {
  const cutoff = now - 24 * 3600 * 1000;
  for (const t of state.oauthTokens.all()) {
    if (t.expires_at < cutoff || (t.grace_until && t.grace_until < cutoff)) state.oauthTokens.remove(t.id);
  }
}

export type TokenCheck = { ok: true; token: OAuthToken } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'foreign_client' | 'wrong_kind' };

/** Validate an access token presented to the API. */
export function checkAccessToken(state: SandboxState, token: string, clientId: string, now = state.now()): TokenCheck {
  const t = state.oauthTokens.get(token);
  if (!t) return { ok: false, reason: 'unknown' };
  if (t.kind !== 'access') return { ok: false, reason: 'wrong_kind' };
  if (t.revoked) return { ok: false, reason: 'revoked' };
  if (t.expires_at <= now) return { ok: false, reason: 'expired' };
  if (t.client_id !== clientId) return { ok: false, reason: 'foreign_client' };
  return { ok: true, token: t };
}
