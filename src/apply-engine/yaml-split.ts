import { Lexer } from 'yaml';

// A fixture or configuration file is one YAML document holding a list of records. Parsed whole, the
// `yaml` library keeps a node per value: ~75 bytes of memory per byte of file (a 19 MB file took
// 1.4 GB before the records were even planned). The list's items are independent, so they are
// found with the library's lexer (which knows quotes, block scalars, comments and flow collections:
// a `-` inside any of them is not an item) and parsed a run of them at a time; what is around the list (the
// `config:` marker, comments) is parsed as a small document of its own. When the file is not that
// plain shape — anchors and aliases (which may point from one record into another), several
// documents, a list in flow style (JSON) — the caller parses it whole.

/** Flow collections (`[`, `{`) nested deeper than this are refused before the parser recurses into them. */
export const MAX_FLOW_DEPTH = 64;

/** Where the records are in the file. */
export interface Split {
  /** The file with the list replaced by `[]` (placeholder), to be parsed for the structure around it. */
  header: string;
  /** Offset of the placeholder's `[` in `header`. */
  placeholder: number;
  /** 1-based line of the header's placeholder; the list's first line in the file. */
  placeholderLine: number;
  /** Lines the list spans in the file (the placeholder takes one). */
  listLines: number;
  /**
   * The items in runs of consecutive ones (about BATCH_BYTES of text each: a document per item costs
   * more in set-up than in parsing), each run's text from the start of its first line, that line's
   * number in the file, and how many items it holds.
   */
  batches: Array<{ text: string; line: number; count: number }>;
}

/** Text parsed as one document at a time: large enough to spread the parser's set-up, small enough that its nodes stay few. */
const BATCH_BYTES = 64 * 1024;

export type Scan =
  | { kind: 'split'; split: Split }
  | { kind: 'whole' }
  | { kind: 'too-deep'; line: number; col: number };

interface Head {
  /** Offset of the start of the line. */
  lineStart: number;
  line: number;
  col: number;
  token: string;
  flow: number;
  /** The rest of the line's source, up to the next newline, when the head is a plain scalar (`records` → `:`). */
  rest: string;
}

const CONTROL = new Set(['\u0002', '\u0018', '\u001f']);

/**
 * Finds the record list of a file: a top-level block sequence (a fixture file) or the block
 * sequence under a top-level `records:` key (a configuration file). Flow collections deeper than
 * MAX_FLOW_DEPTH stop the scan (`too-deep`).
 */
export function scanRecords(text: string): Scan {
  const heads: Head[] = [];
  let offset = 0;
  let line = 1;
  let lineStart = 0;
  let atLineStart = true;
  let flow = 0;
  let pending: Head | undefined;
  let plain = true;
  for (const token of new Lexer().lex(text)) {
    if (CONTROL.has(token)) continue;
    if (token[0] === '&' || token[0] === '*') plain = false;
    if (token === '[' || token === '{') {
      flow++;
      if (flow > MAX_FLOW_DEPTH) return { kind: 'too-deep', line, col: offset - lineStart + 1 };
    } else if ((token === ']' || token === '}') && flow > 0) flow--;
    if (pending) {
      if (token.includes('\n')) {
        pending.rest += token.slice(0, token.indexOf('\n'));
        pending = undefined;
      } else pending.rest += token;
    }
    if (atLineStart && !/^[ \t]*$/.test(token) && token !== '\n' && token !== '\r\n' && token[0] !== '#') {
      // A block scalar's lines come as one token that starts with their indentation.
      const head: Head = { lineStart, line, col: offset - lineStart + /^[ \t]*/.exec(token)![0].length, token, flow, rest: '' };
      heads.push(head);
      if (!token.includes('\n')) pending = head;
      atLineStart = false;
    }
    for (let i = token.indexOf('\n'); i >= 0; i = token.indexOf('\n', i + 1)) {
      line++;
      lineStart = offset + i + 1;
      atLineStart = true;
    }
    offset += token.length;
  }
  // Tokens that are not the file's own text (a stray control character) would shift every offset.
  if (offset !== text.length || !plain) return { kind: 'whole' };
  const split = splitAt(text, heads, line);
  return split ? { kind: 'split', split } : { kind: 'whole' };
}

function splitAt(text: string, heads: Head[], lastLine: number): Split | undefined {
  if (heads.some((h) => h.token === '---' || h.token === '...' || h.token[0] === '%')) return undefined;
  let first = 0;
  let configList = false;
  if (heads[0]?.token !== '-') {
    // A configuration file: `records:` alone on its line, at the left margin, with its items on the lines below.
    first = heads.findIndex((h) => h.token === 'records' && h.col === 0 && h.flow === 0 && /^\s*:\s*(#.*)?$/.test(h.rest));
    if (first < 0) return undefined;
    first++;
    configList = true;
  }
  const start = heads[first];
  if (start?.token !== '-' || start.flow !== 0) return undefined;
  const indent = start.col;
  const items: Head[] = [];
  let end = first;
  for (; end < heads.length; end++) {
    const h = heads[end]!;
    if (h.flow > 0 || h.col > indent) continue;
    if (h.col === indent && h.token === '-') items.push(h);
    else break;
  }
  // After a fixture file's list nothing may follow; after a configuration file's, only top-level keys.
  if (!configList && end < heads.length) return undefined;
  const stop = heads[end];
  const regionEnd = stop ? stop.lineStart : text.length;
  const endLine = stop ? stop.line : lastLine + (text.endsWith('\n') ? 0 : 1);
  const before = text.slice(0, start.lineStart);
  const place = `${' '.repeat(configList ? Math.max(indent, 1) : indent)}[]\n`;
  return {
    header: `${before}${place}${text.slice(regionEnd)}`,
    placeholder: before.length + place.indexOf('['),
    placeholderLine: start.line,
    listLines: endLine - start.line,
    batches: batchesOf(text, items, regionEnd),
  };
}

function batchesOf(text: string, items: Head[], regionEnd: number): Split['batches'] {
  const out: Split['batches'] = [];
  for (let i = 0; i < items.length; ) {
    const first = items[i]!;
    let j = i + 1;
    while (j < items.length && items[j]!.lineStart - first.lineStart < BATCH_BYTES) j++;
    out.push({ text: text.slice(first.lineStart, items[j]?.lineStart ?? regionEnd), line: first.line, count: j - i });
    i = j;
  }
  return out;
}

/** The file's line of a line of the header (the lines after the list moved up when it became one line). */
export function headerLineToFile(split: Split, line: number): number {
  if (line <= split.placeholderLine) return line;
  return line - 1 + split.listLines;
}
