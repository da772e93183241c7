import { readFileSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { UsageError, ValidationError } from '../core/errors.js';
import { readAllBytes, TooLargeError } from '../core/stdin.js';

/**
 * Largest file `@path` reads into one request. The interface states no body limit; its largest
 * bounded record is a note of about 100,000 characters, so a bigger file is a mistake (a wrong path,
 * an export instead of a record), refused before it is read whole and sent.
 */
export const MAX_INPUT_FILE_BYTES = 5 * 1024 * 1024;

/**
 * The text behind a flag value: `-` is stdin, `@path` a file, anything else the value itself. Every
 * flag that takes JSON or text this way goes through here (and `readJsonInput`), so a bad file or
 * bad JSON is the same exit 2 naming the flag wherever it is given.
 */
export async function readInputText(stdin: Readable, value: string, flag: string): Promise<string> {
  if (value === '-') return decodeUtf8(await readStdinCapped(stdin, flag), flag, 'stdin');
  return readMaybeFile(value, flag);
}

/** stdin under the same cap as a file given with @ (one request body either way). */
export async function readStdinCapped(stdin: Readable, flag: string): Promise<Buffer> {
  try {
    return await readAllBytes(stdin, MAX_INPUT_FILE_BYTES);
  } catch (err) {
    if (err instanceof TooLargeError) throw tooLarge(flag, 'stdin');
    throw err;
  }
}

/** `bytes` when known (a file's size); stdin is refused as soon as it passes the cap. */
function tooLarge(flag: string, what: string, bytes?: number): UsageError {
  const limit = MAX_INPUT_FILE_BYTES / 1024 / 1024;
  const size = bytes === undefined ? `more than ${limit} MB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return new UsageError(`${flag}: ${what} is ${size}; input given with @file or - may be at most ${limit} MB (one request body)`, 'To create many records from a file, use `crmctl import`.');
}

/** `@path` reads a file, anything else is the value itself (synchronous: for values known not to be stdin). */
export function readMaybeFile(value: string, flag: string): string {
  if (!value.startsWith('@')) return value;
  const path = value.slice(1);
  let bytes: Buffer;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new UsageError(`${flag}: ${path} is a directory, not a file`);
    if (st.size > MAX_INPUT_FILE_BYTES) {
      throw tooLarge(flag, path, st.size);
    }
    bytes = readFileSync(path);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${flag}: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return decodeUtf8(bytes, flag, path);
}

/** JSON behind a flag value (inline, `@file` or `-`); anything that does not parse is exit 2 naming the flag. */
export async function readJsonInput(stdin: Readable, value: string, flag: string): Promise<unknown> {
  return parseJsonText(await readInputText(stdin, value, flag), flag, value);
}

export function parseJsonText(text: string, flag: string, given: string = text): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const where = given === '-' ? ' (from stdin)' : given.startsWith('@') ? ` (from ${given.slice(1)})` : '';
    throw new ValidationError([{ field: flag, rule: `must be JSON${where}: ${(err as Error).message}` }]);
  }
}

/**
 * Text of input bytes, refusing invalid UTF-8 instead of replacing it with U+FFFD (which would send
 * silently corrupted text). The message names the flag and the line of the first bad byte.
 */
export function decodeUtf8(bytes: Uint8Array, flag: string, source: string, firstLine = 1): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const loose = new TextDecoder('utf-8').decode(bytes);
    const at = loose.indexOf('\uFFFD');
    const line = firstLine + (at < 0 ? 0 : (loose.slice(0, at).match(/\n/g)?.length ?? 0));
    throw new UsageError(`${flag}: ${source} is not valid UTF-8 (line ${line})`, 'Save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8 in > out`) and try again.');
  }
}
