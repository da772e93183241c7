/**
 * The command line a run records (its journal's header, its record in the index): the words as typed
 * (`ctx.argv`, handed down by main), with secrets taken out. Journals and the index outlive the run and
 * are read by people and by `runs list`, so a secret typed into a word must not be kept: a JSON word
 * (`--data '{"api_token":"…"}'`) keeps its shape with secret-keyed values replaced, a `key=value` word
 * (`--field`, `--param`) loses a secret key's value, and any word loses the credentials this command
 * knows and anything shaped like a bearer or basic credential (the rules of src/core/redact.ts). The
 * rest of a journal's header (the kind's own fields: a bulk update's changes) is kept the same way
 * (`recordedValue`).
 */
import { isSecretKey, REDACTED, redactText, redactUrlEncoded, redactValue } from '../core/redact.js';

export function recordedCommand(argv: readonly string[], secrets: readonly string[]): string[] {
  return argv.map((word) => {
    // `--data={…}`, `--param=k=v`: the value after the flag is redacted as a word of its own.
    const inline = /^(--?[A-Za-z][\w-]*=)([\s\S]*)$/.exec(word);
    return inline ? `${inline[1]}${redactWord(inline[2]!, secrets)}` : redactWord(word, secrets);
  });
}

function redactWord(word: string, secrets: readonly string[]): string {
  let out = word;
  const json = jsonOf(word);
  if (json !== undefined) {
    // Re-encoded only when a value goes: otherwise the word stays as typed (its spacing too).
    const redacted = JSON.stringify(redactValue(json));
    if (redacted !== JSON.stringify(json)) out = redacted;
  } else {
    // `key=value` and `key:=value` (--field, --param); a dotted key is judged by its last part.
    const pair = /^([^=\s]+?)(:?=)([\s\S]*)$/.exec(word);
    if (pair && isSecretKey(pair[1]!.split('.').pop()!)) out = `${pair[1]}${pair[2]}${REDACTED}`;
    // A URL or a query string typed as a word (`?api_token=…`).
    else if (word.includes('?')) out = redactUrlEncoded(word);
  }
  return redactText(out, secrets);
}

/** The value of a word that is a JSON object or array; undefined for anything else. */
function jsonOf(word: string): unknown {
  const t = word.trim();
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']'))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A value a run keeps in its header or record (a bulk update's changes, the input in words): values
 * under secret keys replaced, the credentials this command knows taken out of every string.
 */
export function recordedValue<T>(value: T, secrets: readonly string[]): T {
  const strip = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, secrets);
    if (Array.isArray(v)) return v.map(strip);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)]));
    return v;
  };
  return strip(redactValue(value)) as T;
}
