import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

// E-mail addresses, phone numbers and names as the audit, the dedupe plan and normalize read them.
// The "max" metadata of libphonenumber-js checks a number against the real number plans of its
// country (the smaller "min" set checks the length only, and would pass 12345 in many countries).

export type PhoneCheck = { valid: true; e164: string } | { valid: false; reason: string };

/**
 * A phone number as written (`+372 5550 1037`, `(555) 123-4567`). A number without a country code is
 * read in `region`; with no region it cannot be told valid, and says so.
 */
export function checkPhone(raw: string, region: string | undefined): PhoneCheck {
  const text = raw.trim();
  if (!text) return { valid: false, reason: 'empty' };
  const international = /^(\+|00)/.test(text);
  if (!international && !region) return { valid: false, reason: 'no country code, and no phone_region to read a national number in' };
  const parsed = parsePhoneNumberFromString(text.replace(/^00/, '+'), region as CountryCode | undefined);
  if (!parsed) return { valid: false, reason: 'not a phone number' };
  if (!parsed.isValid()) return { valid: false, reason: `not a valid number${parsed.country ? ` in ${parsed.country}` : ''}` };
  return { valid: true, e164: parsed.number };
}

/** A key two spellings of one number share: E.164 when it parses, else its digits (at least 7). */
export function phoneKey(raw: string, region: string | undefined): string | undefined {
  const c = checkPhone(raw, region);
  if (c.valid) return c.e164;
  const digits = raw.replace(/\D/g, '');
  return digits.length >= 7 ? digits : undefined;
}

/**
 * Deliverable in form: one `@`, no spaces, a domain with a dot and a top-level part of two letters or
 * more. Not RFC 5322 in full (quoted local parts are legal and never seen in a CRM), and no DNS lookup.
 */
export function emailProblem(raw: string): string | undefined {
  const text = raw.trim();
  if (!text) return 'empty';
  if (/\s/.test(text)) return 'contains a space';
  const at = text.split('@');
  if (at.length !== 2) return at.length === 1 ? 'has no @' : 'has more than one @';
  const [local, domain] = at as [string, string];
  if (!local) return 'nothing before the @';
  if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i.test(domain)) return `the domain "${domain}" is not a host name`;
  if (!/\.[a-z]{2,}$/i.test(domain)) return `the domain "${domain}" has no top-level part`;
  if (/^\.|\.$|\.\./.test(local)) return 'a dot at the start or end, or two in a row, before the @';
  return undefined;
}

export const emailKey = (raw: string): string => raw.trim().toLowerCase();

/** Lower case, accents and punctuation dropped, spaces collapsed: `Bob Bērziņš` → `bob berzins`. */
export function normalName(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Legal forms that say nothing about which company it is (`Acme Corp.` and `Acme Corporation` are one). */
const LEGAL_FORMS = new Set([
  'inc', 'incorporated', 'ltd', 'limited', 'llc', 'llp', 'plc', 'corp', 'corporation', 'co', 'company', 'gmbh', 'ag', 'kg', 'sa', 'sas', 'sarl',
  'srl', 'spa', 'bv', 'nv', 'oy', 'oyj', 'ab', 'as', 'asa', 'aps', 'sia', 'uab', 'ou', 'pty', 'the',
]);

export function normalOrgName(raw: string): string {
  const words = normalName(raw).split(' ').filter(Boolean);
  const kept = words.filter((w) => !LEGAL_FORMS.has(w));
  return (kept.length ? kept : words).join(' ');
}

/** A website's host without `www.`: `https://www.Acme.example.com/about` → `acme.example.com`. */
export function websiteKey(raw: string): string | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    return u.hostname.toLowerCase().replace(/^www\./, '') || undefined;
  } catch {
    return undefined;
  }
}
