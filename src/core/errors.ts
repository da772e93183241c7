import { EXIT, type ExitCode } from './exit-codes.js';

/** Base of every error the CLI expects; `main` prints `message` and `hint` and exits with `exitCode`. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  constructor(message: string, exitCode: ExitCode = EXIT.ERROR, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/** Bad flags, arguments or input. Raised before any request is sent. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.USAGE, hint);
  }
}

/** One or more fields broke a rule; `issues` name each field and rule. */
export class ValidationError extends UsageError {
  readonly issues: ReadonlyArray<{ field: string; rule: string }>;
  constructor(issues: ReadonlyArray<{ field: string; rule: string }>, hint?: string) {
    super(issues.map((i) => `${i.field}: ${i.rule}`).join('\n'), hint);
    this.issues = issues;
  }
}

export class CancelledError extends CliError {
  constructor(message = 'Cancelled.') {
    super(message, EXIT.CANCELLED);
  }
}

export class AuthError extends CliError {
  constructor(message: string, hint = 'Run `crmctl auth login` (or set CRMCTL_ACCESS_TOKEN in CI).') {
    super(message, EXIT.AUTH, hint);
  }
}

export class NotFoundError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.NOT_FOUND, hint);
  }
}

export class RateLimitError extends CliError {
  constructor(message: string, hint = 'The account\'s cost budget is spent; wait for the window to reset or lower concurrency.') {
    super(message, EXIT.RATE_LIMITED, hint);
  }
}

/**
 * The company's daily token budget is spent: the service refuses every request until it resets, so
 * this is not retried (backing off would retry all day). `resetsAt` is epoch ms of the reset.
 */
export class DailyBudgetError extends RateLimitError {
  readonly resetsAt: number;
  constructor(message: string, resetsAt: number, hint = 'The service refuses every request until the reset; crmctl does not retry. Run the command again after it (`crmctl budget` shows what is left).') {
    super(message, hint);
    this.resetsAt = resetsAt;
  }
}

export class PartialFailureError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.PARTIAL, hint);
  }
}

/**
 * Not a failure: a plan found changes, or an audit gate found findings. What was found is already
 * printed; main exits with 8 and prints nothing more, so CI can tell "found" (8) from "none" (0) and
 * from errors.
 */
export class ChangesFound extends CliError {
  constructor(message = 'the plan has changes') {
    super(message, EXIT.CHANGES);
  }
}

/** An answer from the service that is an error; carries what the service said. */
export class ApiError extends CliError {
  readonly status: number;
  readonly body: unknown;
  readonly requestId: string | undefined;
  constructor(status: number, message: string, opts: { body?: unknown; requestId?: string; hint?: string; exitCode?: ExitCode } = {}) {
    super(message, opts.exitCode ?? EXIT.ERROR, opts.hint);
    this.status = status;
    this.body = opts.body;
    this.requestId = opts.requestId;
  }
}

/**
 * A write whose outcome is unknown: the connection broke (or a gateway error came back)
 * after the request may have reached the service. Never retried blindly.
 */
export class AmbiguousWriteError extends CliError {
  constructor(message: string) {
    super(message, EXIT.ERROR, 'The write may or may not have been applied; check before retrying.');
  }
}

/** The service (or the OAuth server) could not be reached: nothing answered, or the connection failed. Safe to retry later. */
export class NetworkError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.ERROR, hint);
  }
}

const RESUMABLE = Symbol.for('crmctl.resumable');

/**
 * Marks a failure of a run that kept its checkpoint or journal: main's error report then names the
 * command line that continues it (the same one with --resume). Returns the error for `throw`.
 */
export function markResumable<E>(err: E): E {
  if (err && typeof err === 'object') (err as Record<symbol, unknown>)[RESUMABLE] = true;
  return err;
}

export function isResumable(err: unknown): boolean {
  return Boolean(err && typeof err === 'object' && (err as Record<symbol, unknown>)[RESUMABLE]);
}

/**
 * The machine-readable name of each kind of failure, printed as `error.code` when the output is json or
 * ndjson (main) and listed by `crmctl commands --json`. Beside the classes that carry the exit codes, so
 * the name and the exit code of a failure are decided in one file.
 */
export const ERROR_CODES = [
  { code: 'usage', exit_code: EXIT.USAGE, meaning: 'Bad flags, arguments or input (commander\'s unknown option or missing argument too); nothing was sent.' },
  { code: 'validation', exit_code: EXIT.USAGE, meaning: 'One or more fields broke a rule; `issues` names each field and rule. Nothing was sent.' },
  { code: 'rejected', exit_code: EXIT.USAGE, meaning: 'The service refused the input (400 or 422); nothing was changed. `status` is its HTTP status.' },
  { code: 'cancelled', exit_code: EXIT.CANCELLED, meaning: 'A confirmation was declined or a prompt interrupted.' },
  { code: 'auth', exit_code: EXIT.AUTH, meaning: 'Not logged in, the token was refused, or permission denied (401/403).' },
  { code: 'not_found', exit_code: EXIT.NOT_FOUND, meaning: 'The record (or route) does not exist (404).' },
  { code: 'rate_limited', exit_code: EXIT.RATE_LIMITED, meaning: 'The service kept answering 429 after every retry, the daily token budget is spent (not retried), or `crmctl budget` found less left than asked.' },
  { code: 'partial', exit_code: EXIT.PARTIAL, meaning: 'A bulk run finished but some rows failed.' },
  { code: 'changes', exit_code: EXIT.CHANGES, meaning: 'Not a failure: crmctl plan found changes (the plan is on stdout; nothing is printed on stderr), or crmctl audit --strict / watch found findings at or above the gate (the findings are on stdout, one line on stderr says so).' },
  { code: 'ambiguous_write', exit_code: EXIT.ERROR, meaning: 'A write may or may not have been applied (the connection broke); check before retrying.' },
  { code: 'network', exit_code: EXIT.ERROR, meaning: 'The service could not be reached (connection refused, DNS, timeout); nothing answered.' },
  { code: 'service', exit_code: EXIT.ERROR, meaning: 'The service answered an error (5xx after retries, an unexpected answer). `status` is its HTTP status.' },
  { code: 'error', exit_code: EXIT.ERROR, meaning: 'Another expected failure (disk, a file that cannot be read, a lock held by another run).' },
  { code: 'internal', exit_code: EXIT.ERROR, meaning: 'An unexpected failure of crmctl itself (a bug); the text output has the report.' },
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number]['code'];

/** The code of a failure: the most specific class wins (a ValidationError is also a UsageError). */
export function errorCode(err: unknown): ErrorCode {
  if (!(err instanceof CliError)) return 'internal';
  if (err instanceof ValidationError) return 'validation';
  if (err instanceof UsageError) return 'usage';
  if (err instanceof CancelledError) return 'cancelled';
  if (err instanceof AuthError) return 'auth';
  if (err instanceof NotFoundError) return 'not_found';
  if (err instanceof RateLimitError) return 'rate_limited';
  if (err instanceof PartialFailureError) return 'partial';
  if (err instanceof ChangesFound) return 'changes';
  if (err instanceof AmbiguousWriteError) return 'ambiguous_write';
  if (err instanceof NetworkError) return 'network';
  if (err instanceof ApiError) return err.exitCode === EXIT.USAGE ? 'rejected' : 'service';
  // A CliError built with a bare exit code: name it by that code's kind.
  const byExit: Partial<Record<ExitCode, ErrorCode>> = { [EXIT.USAGE]: 'usage', [EXIT.CANCELLED]: 'cancelled', [EXIT.AUTH]: 'auth', [EXIT.NOT_FOUND]: 'not_found', [EXIT.RATE_LIMITED]: 'rate_limited', [EXIT.PARTIAL]: 'partial' };
  return byExit[err.exitCode] ?? 'error';
}
