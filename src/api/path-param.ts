import { isDotSegment } from '../core/request-path.js';

/**
 * The rule for a value put into a URL path: it must stay one segment naming one thing. `.` and `..`
 * (also `%2e`) would be removed by the URL parser (`call-logs delete ..` became `DELETE /api/v1/`),
 * an empty value drops the segment, and a slash or backslash reads as a segment break to servers and
 * proxies that decode before routing. Checked where inputs are validated (exit 2, naming the
 * parameter) and again where the path is filled, so no door (flags, MCP, fixtures, rows) skips it.
 */
export function pathParamProblem(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'must be a finite number';
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') return 'must not be empty';
  if (isDotSegment(value)) return `must not be "." or ".." (got ${JSON.stringify(value)})`;
  if (/[/\\]|%2f|%5c/i.test(value)) return `must not contain a slash or backslash (got ${JSON.stringify(value)})`;
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'must not contain control characters';
  return undefined;
}
