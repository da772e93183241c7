/**
 * Record text made safe to print on a terminal (issue 28.11). Anyone who can name a record (a lead's
 * title, a label, a webhook payload) chooses the characters an admin's terminal receives: ESC starts a
 * sequence that moves the cursor, erases lines or hides text, CR returns to the start of the line, C1
 * controls (U+0080–U+009F; U+009B is a one-character CSI on some terminals) do the same, and bidi
 * overrides (U+202A–U+202E, U+2066–U+2069) reorder what follows, so `ok ESC[2K ESC[1A CR FAKE` or
 * `evil<RLO>fdp.exe` could rewrite a table or a plan under review. Every human-facing output shows them
 * as visible escapes instead (`\x1b`, `\r`, `\u202e`): tables, TSV, text reports, notices and error
 * messages. JSON and NDJSON stay exact (they are data, and JSON.stringify escapes C0 itself); CSV stays
 * exact too, because an export must import back byte for byte.
 *
 * One helper for every caller (the apply engine's plan lines use it too): `safeText` for one line (a
 * table cell, a TSV cell, a plan line's value), `safeLines` for text that may span lines (a notice, an
 * error message): line breaks and tabs stay, everything else is shown.
 */

/** C0 controls, DEL, C1 controls and the bidi embeddings, overrides and isolates. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same, with line feed and tab left alone (CR is not: a lone CR returns to the line's start). */
const UNSAFE_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** How a character a terminal would act on is shown instead: `\t`, `\n`, `\r`, `\x1b`, `\u202e`. */
function shown(ch: string): string {
  const short = SHORT[ch];
  if (short) return short;
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line of text with every control character (tab and line feed too) and bidi control shown as an escape. */
export function safeText(text: string): string {
  return text.replace(UNSAFE, shown);
}

/** Text that may span lines: line feeds and tabs stay (CRLF becomes LF); every other control is shown as an escape. */
export function safeLines(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE_IN_LINES, shown);
}

