import { ApiError, AuthError, NotFoundError, RateLimitError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { redactUrlEncoded } from '../core/redact.js';
import type { HttpResponse } from './types.js';

/** The service's words from any of its error shapes (the vendor's documents). */
export function serviceMessage(body: unknown): { message?: string; info?: string } {
  if (!body || typeof body !== 'object') return typeof body === 'string' && body ? { message: body.slice(0, 300) } : {};
  const b = body as Record<string, unknown>;
  const info = typeof b.error_info === 'string' ? b.error_info : typeof b.error_description === 'string' ? b.error_description : undefined;
  if (typeof b.error === 'string') return { message: b.error, info };
  if (typeof b.message === 'string') return { message: b.message, info };
  if (b.errors && typeof b.errors === 'object') {
    const parts = Object.entries(b.errors as Record<string, unknown>).map(
      ([field, msgs]) => `${field}: ${Array.isArray(msgs) ? msgs.join(', ') : String(msgs)}`,
    );
    return { message: parts.join('; '), info };
  }
  return { info };
}

export function toApiError(res: HttpResponse, ctx: { method: string; path: string; scopes?: string[]; grantedScopes?: string[]; loginHint?: string }): Error {
  const { message, info } = serviceMessage(res.body);
  const requestId = first(res.headers['x-request-id']);
  const what = `${ctx.method} ${ctx.path}`;
  const said = message ? `: ${message}` : '';
  if (res.status >= 300 && res.status < 400) {
    // Redirects are not followed: the answer is not the operation's, and Location may be another host.
    const location = first(res.headers.location);
    return new ApiError(res.status, `The service answered ${res.status} for ${what} with a redirect to ${location ? redactUrlEncoded(location) : '(no Location)'}; crmctl does not follow redirects (the credentials would go along).`, {
      body: res.body,
      requestId,
      hint: 'Check the API address (CRMCTL_API_DOMAIN or the profile\'s apiDomain): it should be the address the service answers at, without a redirect.',
      exitCode: EXIT.ERROR,
    });
  }
  switch (res.status) {
    case 401:
      return new AuthError(`The service refused the credentials (401)${said}.`, ctx.loginHint ?? 'Run `crmctl auth login` (or check CRMCTL_ACCESS_TOKEN / CRMCTL_API_TOKEN).');
    case 403: {
      // When the token is known to hold a scope the operation accepts, scopes are not the reason: say
      // what the service said (a user permission, an admin-only operation, a plan limit) and no more.
      const scopeHeld = Boolean(ctx.scopes?.length && ctx.grantedScopes?.some((s) => ctx.scopes!.includes(s)));
      if (scopeHeld) {
        return new AuthError(`Permission denied (403) for ${what}${said || ' (the service gave no reason)'}.`, info ?? 'The token has the scope this needs; the user lacks the permission. Ask an admin of the company account.');
      }
      const needs = ctx.scopes?.length ? ` This operation needs one of the scopes: ${ctx.scopes.join(', ')}.` : '';
      const has = ctx.grantedScopes?.length ? ` The token has: ${ctx.grantedScopes.join(', ')}.` : '';
      return new AuthError(`Permission denied (403) for ${what}${said}.${needs}${has}`, info ?? 'Ask an admin for the permission, or add the scope to the app and log in again.');
    }
    case 404:
      return new NotFoundError(`Not found (404)${said || ` for ${what}`}.`, info);
    case 429:
      return new RateLimitError(`Rate limited (429) on ${what} after every retry${said}.`);
    default: {
      // 400/422: the service refused the input and changed nothing, so it is the same class of failure
      // as input crmctl refuses before sending: exit 2 (docs/exit-codes.md says both).
      const refused = res.status === 400 || res.status === 422;
      const exitCode = refused ? EXIT.USAGE : EXIT.ERROR;
      return new ApiError(res.status, `The service answered ${res.status} for ${what}${said}.${refused ? ' It refused the input; nothing was changed.' : ''}`, {
        body: res.body,
        requestId,
        hint: info,
        exitCode,
      });
    }
  }
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
