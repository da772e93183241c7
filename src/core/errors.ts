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

export class PartialFailureError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.PARTIAL, hint);
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
