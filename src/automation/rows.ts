import { createReadStream, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline, Readable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import { decodeUtf8 } from '../input/sources.js';

export type InputFormat = 'ndjson' | 'json' | 'csv';
export const INPUT_FORMATS: readonly InputFormat[] = ['ndjson', 'json', 'csv'];

/** One input row, named by the line it starts on (what the results file and error report use). */
export type Row =
  | { line: number; kind: 'json'; value: unknown }
  | { line: number; kind: 'csv'; cells: string[] }
  | { line: number; kind: 'error'; rule: string };

export function formatOf(file: string, given: string | undefined): InputFormat {
  if (given !== undefined) {
    if (!(INPUT_FORMATS as readonly string[]).includes(given)) throw new UsageError(`--format: must be one of ${INPUT_FORMATS.join(', ')} (got "${given}")`);
    return given as InputFormat;
  }
  const ext = extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.json') return 'json';
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  throw new UsageError(`--format: cannot tell the format of ${file} from its extension; give --format ndjson, json or csv`);
}

/** Rows of a file; CSV yields its header first as `header`. Streams ndjson and CSV; a JSON array is read whole. */
export async function* readRows(file: string, format: InputFormat, onHeader?: (cells: string[]) => void): AsyncGenerator<Row> {
  if (format === 'ndjson') {
    const rl = createInterface({ input: Readable.from(utf8Text(file)), crlfDelay: Infinity });
    let line = 0;
    for await (const text of rl) {
      line++;
      if (!text.trim()) continue;
      try {
        yield { line, kind: 'json', value: JSON.parse(text) };
      } catch {
        yield { line, kind: 'error', rule: 'is not valid JSON' };
      }
    }
    return;
  }
  if (format === 'json') {
    yield* jsonArrayRows(decodeUtf8(readFileSync(file), '--file', file));
    return;
  }
  let header = true;
  for await (const rec of csvRecords(utf8Text(file), file)) {
    if (header) {
      header = false;
      onHeader?.(rec.cells.map((c, i) => (i === 0 ? c.replace(/^\uFEFF/, '') : c)));
      continue;
    }
    if (rec.cells.length === 1 && rec.cells[0] === '') continue; // blank line
    yield { line: rec.line, kind: 'csv', cells: rec.cells };
  }
  if (header) throw new UsageError(`--file: ${file} is empty; a CSV file needs a header row`);
}

/**
 * A file's text in chunks, refusing invalid UTF-8 (createReadStream's 'utf8' would turn bad bytes
 * into U+FFFD and import corrupted text). The error names --file and the line of the first bad byte.
 */
async function* utf8Text(file: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lines = 1;
  for await (const chunk of createReadStream(file)) {
    let text: string;
    try {
      text = decoder.decode(chunk as Buffer, { stream: true });
    } catch {
      decodeUtf8(chunk as Buffer, '--file', file, lines); // throws with the line
      throw new UsageError(`--file: ${file} is not valid UTF-8 (line ${lines})`);
    }
    lines += text.match(/\n/g)?.length ?? 0;
    yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new UsageError(`--file: ${file} is not valid UTF-8 (it ends in the middle of a character)`);
  }
}

/** Elements of a top-level JSON array with the line each starts on. */
export function* jsonArrayRows(text: string): Generator<Row> {
  let i = text.search(/\S/);
  if (i < 0 || text[i] !== '[') throw new UsageError('--file: a .json input must be one JSON array of objects (use .ndjson for one object per line)');
  let line = 1 + countNewlines(text, 0, i);
  let depth = 0, inStr = false, esc = false, start = -1, startLine = 0;
  for (i = i + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') line++;
    if (inStr) {
      if (esc) esc = false;
      else if (ch === '\\') esc = true;
      else if (ch === '"') inStr = false;
      continue;
    }
    if (depth === 0 && (ch === ',' || ch === ']')) {
      if (start >= 0) yield parseElement(text.slice(start, i), startLine);
      start = -1;
      if (ch === ']') return;
      continue;
    }
    if (start < 0 && !/\s/.test(ch)) {
      start = i;
      startLine = line;
    }
    if (ch === '"') inStr = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  if (start >= 0) yield parseElement(text.slice(start), startLine);
}

function parseElement(slice: string, line: number): Row {
  try {
    return { line, kind: 'json', value: JSON.parse(slice) };
  } catch {
    return { line, kind: 'error', rule: 'is not valid JSON' };
  }
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * RFC 4180 records from a text stream (csv-parse), with the line each record starts on: quoted cells
 * may span lines, and the results file and error report name rows by their first line. Line endings
 * may be mixed (\r\n, \n, \r), as files edited on several systems are.
 */
export async function* csvRecords(input: AsyncIterable<string | Buffer>, file = 'the file'): AsyncGenerator<{ line: number; cells: string[] }> {
  const { parse } = await import('csv-parse');
  const parser = parse({ raw: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, record_delimiter: ['\r\n', '\n', '\r'] });
  // pipeline, not pipe: an error of the input (bad UTF-8) must end the parser with that error.
  const feed = pipeline(Readable.from(input), parser, () => undefined);
  // Lines are counted here, not taken from the parser's info.lines: that counts the \r and the \n of a
  // CRLF inside a quoted cell as two lines, which shifted every later row by one per such cell.
  // `raw` holds a record's text and (part of) its delimiter: a line break inside it counts once (\r\n
  // is one), and the delimiter ends the record's last line.
  let line = 1;
  try {
    for await (const r of feed as AsyncIterable<{ record: string[]; raw: string }>) {
      const inside = r.raw.replace(/(\r\n|\n|\r)$/, '').match(/\r\n|\n|\r/g)?.length ?? 0;
      yield { line, cells: r.record };
      line += inside + 1;
    }
  } catch (err) {
    const e = err as { code?: string; lines?: number; message?: string };
    if (!e.code?.startsWith('CSV_')) throw err;
    throw new UsageError(`--file: ${file} is not valid CSV at line ${e.lines ?? '?'}: ${String(e.message).replace(/ at line \d+.*$/s, '')}`);
  }
}
