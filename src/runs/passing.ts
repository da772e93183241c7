import { AmbiguousWriteError, ApiError, AuthError, type CliError, NotFoundError, UsageError, ValidationError } from '../core/errors.js';

/**
 * What `--resume` may send again: a failure that may not happen again (rate limit, network, 5xx after
 * every retry, a spent budget) for a write that did not land. Refusals (4xx), a missing record and
 * unknown outcomes are not: sending them again would fail the same way, or write twice.
 */
export function isPassing(err: CliError): boolean {
  if (err instanceof AmbiguousWriteError || err instanceof ValidationError || err instanceof AuthError || err instanceof NotFoundError || err instanceof UsageError) return false;
  if (err instanceof ApiError) return err.status >= 500 || err.status === 429;
  return true;
}
