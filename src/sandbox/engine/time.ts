// The service's two time formats: v1 `YYYY-MM-DD HH:MM:SS` (UTC), v2 RFC 3339 without milliseconds.
export const v1Time = (iso: string | null | undefined): string | null => (iso ? new Date(iso).toISOString().slice(0, 19).replace('T', ' ') : null);
export const v2Time = (iso: string | null | undefined): string | null => (iso ? new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z') : null);

/** Parses the service's date-time forms (RFC 3339 or `YYYY-MM-DD HH:MM:SS`, taken as UTC). */
export function parseTime(s: string): number {
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(s) ? Date.parse(`${s.replace(' ', 'T')}Z`) : Date.parse(s);
}
