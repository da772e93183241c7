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
 * case of hex digits, space as + or %20), with JSON's escaped slashes, and base64-encoded (standard
 * or URL-safe, percent-encoded in turn) alone or inside a longer encoded text (a Basic header, an
 * encoded "Bearer <token>"). Kept per secret: traces redact every line with the same few secrets.
 */
function secretForms(s: string): readonly string[] {
  let forms = FORMS.get(s);
  if (forms) return forms;
  const all = new Set([...textForms(s), ...base64Runs(s).flatMap((b) => [...textForms(b), ...textForms(b.replace(/\+/g, '-').replace(/\//g, '_'))])]);
  forms = [...all].filter((f) => f.length >= MIN_FORM).sort((a, b) => b.length - a.length);
  if (FORMS.size >= 64) FORMS.clear();
  FORMS.set(s, forms);
  return forms;
}

const FORMS = new Map<string, readonly string[]>();
/** Shorter runs than this could match ordinary text by chance; a secret is at least 6 characters. */
const MIN_FORM = 6;

function textForms(s: string): string[] {
  const encoded = encodeURIComponent(s);
  const form = new URLSearchParams({ s }).toString().slice(2);
  return [s, encoded, encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()), form, s.replace(/\//g, '\\/')];
}

/**
 * The base64 characters that only the secret's bytes decide, for each of the three alignments the
 * secret can have inside a longer encoded text (base64 turns 3 bytes into 4 characters, so the
 * characters around a secret depend on its neighbours; these runs do not), after the secret encoded
 * alone (with and without its padding).
 */
function base64Runs(s: string): string[] {
  const bytes = Buffer.from(s, 'utf8');
  const alone = bytes.toString('base64');
  const runs: string[] = [alone, alone.replace(/=+$/, '')];
  for (let lead = 0; lead < 3; lead++) {
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes]).toString('base64');
    runs.push(encoded.slice(Math.ceil((lead * 8) / 6), Math.floor(((lead + bytes.length) * 8) / 6)));
  }
  return runs;
}
