// The service's two time formats: v1 `YYYY-MM-DD HH:MM:SS` (UTC), v2 RFC 3339 without milliseconds.
// The one v1 formatter of the sandbox: a time (a Date or any string Date reads) in; null stays null.
export function v1Time(t: Date | string): string;
export function v1Time(t: Date | string | null | undefined): string | null;
export function v1Time(t: Date | string | null | undefined): string | null {
  return t ? new Date(t).toISOString().slice(0, 19).replace('T', ' ') : null;
}
export const v2Time = (iso: string | null | undefined): string | null => (iso ? new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z') : null);

/** Parses the service's date-time forms (RFC 3339 or `YYYY-MM-DD HH:MM:SS`, taken as UTC). */
export function parseTime(s: string): number {
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(s) ? Date.parse(`${s.replace(' ', 'T')}Z`) : Date.parse(s);
}
