import { ValidationError } from '../core/errors.js';

// Days, as the checks and analytics count them: calendar days in UTC (the service keeps times in UTC
// and dates without a zone), so a report is the same wherever it runs.

export const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of an instant, in UTC. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The instant of a record's time (`2025-01-06T09:00:00Z`, `2025-01-06 09:00:00`, `2025-01-06`), or NaN. */
export function msOf(t: unknown): number {
  if (typeof t !== 'string' || !t) return Number.NaN;
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return Date.parse(`${t}T00:00:00Z`);
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(t)) return Date.parse(`${t.replace(' ', 'T')}Z`);
  return Date.parse(t);
}

/** Whole days from `from` to `to` (instants), rounded down; 0 for the same day or when one is unknown. */
export function daysBetween(from: number, to: number): number {
  if (!Number.isFinite(from) || !Number.isFinite(to)) return 0;
  return Math.floor((to - from) / DAY_MS);
}

/** Whole calendar days from date `a` to date `b` (both `YYYY-MM-DD`). */
export const dateDiff = (a: string, b: string): number => Math.round((msOf(b) - msOf(a)) / DAY_MS);

/** `YYYY-MM` of a date or time. */
export const monthOf = (t: string): string => t.slice(0, 7);

/** The date given by a flag (`--as-of 2025-02-01`): a real calendar day, else exit 2 naming the flag. */
export function parseDay(raw: string, flag: string): string {
  const text = raw.trim();
  const ms = msOf(text);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !Number.isFinite(ms) || dayOf(ms) !== text) {
    throw new ValidationError([{ field: flag, rule: `must be a date YYYY-MM-DD (got ${JSON.stringify(raw)})` }]);
  }
  return text;
}

/** The end of a day (23:59:59.999 UTC): "as of 2025-02-01" counts that whole day as today. */
export const endOfDay = (day: string): number => msOf(day) + DAY_MS - 1;
