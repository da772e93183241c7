import { UsageError } from '../core/errors.js';

/**
 * Why a request path could leave the API host or collapse into another resource, or undefined when
 * it is a plain absolute path. `//host/x` and `/\host/x` are protocol-relative to a URL parser; a
 * backslash counts as a slash in http(s) URLs; `.`/`..` segments (also `%2e`) are removed by it, so
 * `DELETE /api/v1/callLogs/..` would become `DELETE /api/v1/`.
 */
export function pathProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return 'must start with /';
  if (/^\/[/\\]/.test(path)) return 'must not start with // or /\\ (that names another host)';
  if (path.includes('\\')) return 'must not contain a backslash';
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'must not contain control characters';
  for (const seg of path.split('/').slice(1)) {
    if (isDotSegment(seg)) return 'must not contain a "." or ".." segment';
  }
  return undefined;
}

/** `.` and `..`, also percent-encoded (`%2e`, `.%2E`): a URL parser treats them all as dot segments. */
export function isDotSegment(segment: string): boolean {
  const s = segment.replace(/%2e/gi, '.');
  return s === '.' || s === '..';
}

/** The origin (scheme, host, port) of a base URL, the only place credentials may go. */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/**
 * The full URL of a request: the base's origin and path, then the request path as a path (never as
 * a reference that could name another host). Refuses a path that would leave the base's origin or
 * collapse through dot segments, naming it (exit 2, nothing sent).
 */
export function requestUrl(baseUrl: string, path: string): URL {
  const problem = pathProblem(path);
  if (problem) throw new UsageError(`<path>: ${problem} (got ${JSON.stringify(path)}); nothing was sent.`, 'Credentials go only to the profile\'s API address; give a path such as /api/v1/leads.');
  const base = new URL(baseUrl);
  const url = new URL(base.origin);
  url.pathname = `${base.pathname.replace(/\/$/, '')}${path}`;
  if (url.origin !== base.origin) {
    throw new UsageError(`<path>: ${JSON.stringify(path)} leads to ${url.origin}, not the API address ${base.origin}; nothing was sent.`);
  }
  return url;
}
