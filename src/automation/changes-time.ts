import { ValidationError } from '../core/errors.js';

/**
 * Times of the changes feed. The service's recents take and give UTC seconds as
 * `YYYY-MM-DD HH:MM:SS` ("service time"); people and scripts give RFC 3339 or a span back from now.
 */

const SPAN = /^(\d+)(s|m|h|d|w)$/;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/;
const SERVICE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** `--since` as a Date: RFC 3339 with a zone (2026-11-24T06:00:00Z) or a span back from now (90m, 24h, 7d). */
export function parseSince(raw: string, flag = '--since', now: () => number = Date.now): Date {
  const text = raw.trim();
  const span = SPAN.exec(text);
  if (span) return new Date(now() - Number(span[1]) * UNIT_MS[span[2]!]!);
  if (RFC3339.test(text)) {
    const d = new Date(text.replace(' ', 'T'));
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw new ValidationError([{ field: flag, rule: `must be an RFC 3339 time with a zone (2026-11-24T06:00:00Z) or a span back from now like 90m, 24h, 7d (got ${JSON.stringify(raw)})` }]);
}

/** A span back from now (24h) rather than a fixed time. */
export const isSpan = (raw: string): boolean => SPAN.test(raw.trim());

/** A Date as the service's recents take it: UTC, whole seconds (rounded down, so nothing is skipped). */
export function toServiceTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** A service time (or an ISO time some records carry) as RFC 3339 UTC; undefined when it is neither. */
export function toRfc3339(t: unknown): string | undefined {
  if (typeof t !== 'string' || !t) return undefined;
  if (SERVICE.test(t)) return `${t.replace(' ', 'T')}Z`;
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? undefined : `${d.toISOString().slice(0, 19)}Z`;
}

/** Any time a record carries, as service time (seconds), so that times of both forms compare as strings. */
export function serviceTimeOf(t: unknown): string | undefined {
  const r = toRfc3339(t);
  return r ? r.slice(0, 19).replace('T', ' ') : undefined;
}
