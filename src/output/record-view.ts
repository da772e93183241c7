import { Chalk } from 'chalk';
import { cellText, getPath } from './cells.js';
import { textWidth } from './fit.js';
import { safeText } from './safe-text.js';
import type { TableOptions } from './table.js';

/**
 * One record on a terminal (every `get`, a create's answer): `key: value` lines with the keys aligned,
 * as `kubectl describe` and `gh repo view` print one thing, instead of a grid with a rule after every
 * field (`deals get 1` drew 37 lines for 18 fields). A value wider than the terminal wraps onto lines
 * indented to the values' column, and a value's own line breaks (a note's text) start new lines there
 * too: nothing is cut, since one record has the room. Keys bold when colour is on. Keys and values are
 * record text, so control characters show as escapes (safe-text.ts).
 */
export function renderRecordView(record: Record<string, unknown>, keys: string[], opts: TableOptions): string {
  const chalk = new Chalk({ level: opts.color ? 1 : 0 });
  const names = keys.map(safeText);
  const pad = Math.max(0, ...names.map(textWidth)) + 2;
  // Wrapping below this many columns would make a tall ribbon of a few characters; let the terminal wrap instead.
  const room = opts.width - pad >= MIN_ROOM ? opts.width - pad : 0;
  const out: string[] = [];
  keys.forEach((key, i) => {
    const label = `${chalk.bold(names[i]!)}:${' '.repeat(pad - textWidth(names[i]!) - 1)}`;
    const lines = cellText(getPath(record, key)).split(/\r?\n/).map(safeText).flatMap((l) => wrap(l, room));
    out.push(`${label}${lines[0] ?? ''}`.trimEnd());
    for (const l of lines.slice(1)) out.push(`${' '.repeat(pad)}${l}`.trimEnd());
  });
  return `${out.join('\n')}\n`;
}

const MIN_ROOM = 20;

/** Lines of at most `room` display columns, broken at spaces where there is one (a long word is split); 0 = no limit. */
function wrap(text: string, room: number): string[] {
  if (!room || textWidth(text) <= room) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/(?<= )/)) {
    if (textWidth(line) + textWidth(word.trimEnd()) <= room) {
      line += word;
      continue;
    }
    if (line.trim()) lines.push(line.trimEnd());
    line = '';
    let rest = word;
    while (textWidth(rest.trimEnd()) > room) {
      const [head, tail] = splitAt(rest, room);
      lines.push(head);
      rest = tail;
    }
    line = rest;
  }
  if (line.trim() || !lines.length) lines.push(line.trimEnd());
  return lines;
}

/** The first `width` display columns of a text and the rest. */
function splitAt(text: string, width: number): [string, string] {
  let n = 0;
  let at = 0;
  for (const ch of text) {
    const w = /\p{Mn}/u.test(ch) ? 0 : 1;
    if (n + w > width) break;
    n += w;
    at += ch.length;
  }
  return [text.slice(0, at), text.slice(at)];
}
