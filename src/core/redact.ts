/** Keys whose values are secrets wherever they appear (headers, JSON bodies, form bodies, URLs). */
const SECRET_KEY = /(authorization|(^|[-_])token$|secret|password|api[-_]?key|cookie|code_verifier|^code$|^state$)/i;

export const REDACTED = '[redacted]';

/** The one rule for which keys hold secrets: traces, error messages and fixture state files all use it. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = SECRET_KEY.test(k) ? REDACTED : v;
  return out;
}

/** Deep copy with secret-looking keys replaced; safe to print. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = SECRET_KEY.test(k) && v !== null && v !== undefined ? REDACTED : redactValue(v, depth + 1);
  }
  return out;
}

/** Redacts secret query/form parameters in a URL or urlencoded string. */
export function redactUrlEncoded(text: string): string {
  return text.replace(/([?&]|^)([^=&?]+)=([^&]*)/g, (all, sep: string, key: string) =>
    SECRET_KEY.test(decodeURIComponent(key)) ? `${sep}${key}=${REDACTED}` : all,
  );
}

/** Last line of defence for free text (error messages): removes anything shaped like a bearer or basic credential. */
export function redactText(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = text.replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/:=-]+/g, `$1 ${REDACTED}`);
  // The password of a URL's userinfo (https://user:password@host).
  out = out.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^/?#@\s:]*):[^/?#@\s]*@/gi, `$1:${REDACTED}@`);
  for (const s of secrets) {
    if (!s || s.length < 6) continue;
    for (const form of secretForms(s)) out = out.split(form).join(REDACTED);
  }
  return out;
}

/**
 * A secret as a server may echo it back: as is, percent-encoded (in a URL or a form body, either
 * case of hex digits, space as + or %20) and with JSON's escaped slashes.
 */
function secretForms(s: string): string[] {
  const encoded = encodeURIComponent(s);
  const form = new URLSearchParams({ s }).toString().slice(2);
  const forms = new Set([s, encoded, encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()), form, s.replace(/\//g, '\\/')]);
  return [...forms].sort((a, b) => b.length - a.length);
}
