import { emailKey, normalName, normalOrgName, phoneKey, websiteKey } from './contacts.js';
import type { Candidate } from './duplicates.js';
import type { OrganizationRecord, PersonRecord } from './types.js';

// What the duplicate search keeps of a person or an organization: its id, name, normalised name and
// exact keys. Small on purpose: the audit of 50k persons keeps these, not the records.

export type PersonMatch = 'email' | 'phone' | 'name';
export type OrganizationMatch = 'name' | 'website';

export function personCandidate(p: PersonRecord, match: readonly PersonMatch[], region: string | undefined): Candidate {
  const keys: string[] = [];
  if (match.includes('email')) for (const e of p.emails ?? []) if (e?.value?.trim()) keys.push(`e-mail ${emailKey(e.value)}`);
  if (match.includes('phone')) {
    for (const ph of p.phones ?? []) {
      const k = ph?.value ? phoneKey(ph.value, region) : undefined;
      if (k) keys.push(`phone ${k}`);
    }
  }
  return { id: p.id, name: p.name, norm: match.includes('name') ? normalName(p.name ?? '') : '', keys };
}

export function organizationCandidate(o: OrganizationRecord, match: readonly OrganizationMatch[]): Candidate {
  const site = match.includes('website') && typeof o.website === 'string' ? websiteKey(o.website) : undefined;
  return { id: o.id, name: o.name, norm: match.includes('name') ? normalOrgName(o.name ?? '') : '', keys: site ? [`website ${site}`] : [] };
}
