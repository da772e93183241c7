import { UsageError } from '../core/errors.js';
import { pathProblem } from '../core/request-path.js';

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
