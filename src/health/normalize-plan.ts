import { checkPhone } from './contacts.js';
import type { PersonRecord } from './types.js';

/**
 * The plan of `crmctl normalize persons`: every e-mail and phone value with what it would become.
 * Phones become E.164 (`+37255501037`) when libphonenumber reads them as valid numbers (national ones in
 * the region given); the rest stay as they are, with the reason. E-mails are trimmed and lower-cased.
 * The writes (one PATCH of a person's emails/phones per person that changes): src/health/normalize-write.ts.
 */

export interface NormalizeRow {
  id: number;
  name: string;
  field: 'phone' | 'email';
  before: string;
  after: string;
  /** changed, same (already normal) or kept (cannot be normalised, with why). */
  outcome: 'changed' | 'same' | 'kept';
  note: string;
}

export interface NormalizeOptions {
  phones?: 'E164';
  emails?: 'lower';
  region: string | undefined;
}

export function normalizePerson(p: PersonRecord, o: NormalizeOptions): NormalizeRow[] {
  const rows: NormalizeRow[] = [];
  if (o.phones) {
    for (const ph of p.phones ?? []) {
      if (!ph?.value) continue;
      const c = checkPhone(ph.value, o.region);
      if (!c.valid) rows.push({ id: p.id, name: p.name, field: 'phone', before: ph.value, after: ph.value, outcome: 'kept', note: c.reason });
      else rows.push({ id: p.id, name: p.name, field: 'phone', before: ph.value, after: c.e164, outcome: c.e164 === ph.value ? 'same' : 'changed', note: '' });
    }
  }
  if (o.emails) {
    for (const e of p.emails ?? []) {
      if (!e?.value) continue;
      const after = e.value.trim().toLowerCase();
      rows.push({ id: p.id, name: p.name, field: 'email', before: e.value, after, outcome: after === e.value ? 'same' : 'changed', note: '' });
    }
  }
  return rows;
}
