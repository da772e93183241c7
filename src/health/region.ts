import { ValidationError } from '../core/errors.js';

/** `--region ee` → `EE`: the country phone numbers without a country code are read in; exit 2 naming the flag otherwise. */
export function parseRegion(raw: string, flag: string): string {
  if (!/^[A-Za-z]{2}$/.test(raw.trim())) throw new ValidationError([{ field: flag, rule: `must be a two-letter country code such as EE, US, GB (got ${JSON.stringify(raw)})` }]);
  return raw.trim().toUpperCase();
}
