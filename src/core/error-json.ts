import { CliError, errorCode, isResumable, ValidationError, ApiError, type ErrorCode } from './errors.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { redactText } from './redact.js';

/** One failure as `{"error": ...}` on stderr when the output is json or ndjson (docs/agents.md). */
export interface ErrorJson {
  code: ErrorCode;
  exit_code: ExitCode;
  message: string;
  /** The fields (flags, arguments, input keys) and the rule each broke; empty when no field is to blame. */
  issues: Array<{ field: string; rule: string }>;
  hint: string | null;
  /** The service's HTTP status and request id, when the service answered. */
  status: number | null;
  request_id: string | null;
}

/**
 * Does this command line ask for json or ndjson? Read from the words themselves, because a failure
 * can come before (or from) commander's parsing: `--json`, `--output json`, `-o ndjson`, `--output=json`.
 */
export function wantsJsonErrors(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--json') return true;
    const value = a === '--output' || a === '-o' ? argv[i + 1] : a.startsWith('--output=') ? a.slice(9) : /^-o[a-z]/.test(a) ? a.slice(2) : undefined;
    if (value === 'json' || value === 'ndjson') return true;
  }
  return false;
}

/** An expected or unexpected failure, redacted as the text report is. */
export function errorJson(err: unknown, secrets: readonly string[], resumeHint?: string): ErrorJson {
  const r = (s: string) => redactText(s, secrets);
  if (!(err instanceof CliError)) {
    const message = err instanceof Error ? err.message : String(err);
    return { code: 'internal', exit_code: EXIT.ERROR, message: r(`unexpected failure: ${message}`), issues: [], hint: resumeHint && isResumable(err) ? r(resumeHint) : null, status: null, request_id: null };
  }
  const hints = [err.hint, isResumable(err) ? resumeHint : undefined].filter((h): h is string => Boolean(h));
  return {
    code: errorCode(err),
    exit_code: err.exitCode,
    message: r(err.message),
    issues: err instanceof ValidationError ? err.issues.map((i) => ({ field: r(i.field), rule: r(i.rule) })) : [],
    hint: hints.length ? r(hints.join('\n')) : null,
    status: err instanceof ApiError ? err.status : null,
    request_id: err instanceof ApiError ? (err.requestId ?? null) : null,
  };
}

/**
 * A usage error commander raised (unknown option, missing argument, a value outside its choices). Its
 * message is "error: <what>" and may go on with "(Did you mean --x?)" or our own "hint: ..." lines.
 */
export function commanderErrorJson(message: string, secrets: readonly string[]): ErrorJson {
  const r = (s: string) => redactText(s, secrets);
  const [first = '', ...rest] = message.trim().split('\n');
  const what = first.replace(/^error:\s*/, '');
  const hint = rest
    .map((l) => l.trim().replace(/^hint:\s*/, '').replace(/^\((.*)\)$/, '$1'))
    .filter(Boolean)
    .join('\n');
  return { code: 'usage', exit_code: EXIT.USAGE, message: r(what), issues: commanderIssues(what).map((i) => ({ field: r(i.field), rule: r(i.rule) })), hint: hint ? r(hint) : null, status: null, request_id: null };
}

/** The field commander's message names, in the form a person types it (`--title`, `<shell>`). */
function commanderIssues(what: string): Array<{ field: string; rule: string }> {
  let m = /^unknown option '([^']+)'/.exec(what);
  if (m) return [{ field: m[1]!.split('=')[0]!, rule: 'is not an option of this command' }];
  m = /^missing required argument '([^']+)'/.exec(what);
  if (m) return [{ field: `<${m[1]}>`, rule: 'is required' }];
  m = /^option '([^']+)' argument missing/.exec(what);
  if (m) return [{ field: longName(m[1]!), rule: 'needs a value' }];
  m = /^option '([^']+)' argument '([^']*)' is invalid\. (.*)$/.exec(what);
  if (m) return [{ field: longName(m[1]!), rule: `"${m[2]}" is invalid: ${m[3]}` }];
  m = /^required option '([^']+)' not specified/.exec(what);
  if (m) return [{ field: longName(m[1]!), rule: 'is required' }];
  return [];
}

function longName(flags: string): string {
  return /--[a-z0-9-]+/i.exec(flags)?.[0] ?? flags.split(/[ ,]/)[0]!;
}
