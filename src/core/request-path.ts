// The rules for a request path, with no imports: `crmctl api` checks a typed path with them before
// loading any HTTP code, and src/http/request-target.ts applies them to every request.

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
