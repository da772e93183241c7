// Text that comes from an account (a label, a record's name, a field's value) printed as part of a
// line on a terminal. Such text may hold a newline (a reviewer would read a second, invented plan
// line), an escape sequence or a carriage return (ESC[2K ESC[1A CR rewrites what is already on the
// screen), an 8-bit CSI (U+009B, the same on some terminals) or a bidi control that reorders the line.
// One helper for every line printer (plan lines, apply results, tables): print the text as it is when
// it is plain, else quoted with those characters escaped, so it can neither move the cursor nor
// pass for something else.

/** C0 and C1 controls, DEL, line and paragraph separators, and the bidi marks, embeddings and isolates. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every control character written as an escape (`\n`, `\u001b`): nothing left for a terminal to act on. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function hasControls(text: string): boolean {
  CONTROL.lastIndex = 0;
  const found = CONTROL.test(text);
  CONTROL.lastIndex = 0;
  return found;
}

/** Plain text as it is; text holding a control character in double quotes, escaped (`"ok \u001b[2K"`). */
export function oneLine(text: string): string {
  return hasControls(text) ? quoted(text) : text;
}

/** Always in double quotes, `"` and `\` escaped and controls escaped: a value that cannot be mistaken for its surroundings. */
export function quoted(text: string): string {
  return `"${escapeControls(text.replace(/["\\]/g, '\\$&'))}"`;
}

/**
 * A value as a plan or diff line shows it: strings quoted, anything else as JSON; JSON.stringify
 * escapes C0 controls but leaves C1 and bidi controls as they are, so those are escaped too.
 */
export function shownValue(v: unknown): string {
  if (v === undefined) return '(none)';
  if (typeof v === 'string') return quoted(v);
  return escapeControls(JSON.stringify(v) ?? String(v));
}
