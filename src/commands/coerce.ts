import { readFileSync, statSync } from 'node:fs';
import type { z } from 'zod';
import { UsageError, ValidationError } from '../core/errors.js';
import type { FieldSpec } from './schema-fields.js';

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** Turns one flag's text into the typed value its field wants; type errors name the flag. */
export function coerceField(field: FieldSpec, raw: unknown): unknown {
  const bad = (rule: string): never => {
    throw new ValidationError([{ field: `--${field.flag}`, rule: `${rule} (got ${JSON.stringify(raw)})` }]);
  };
  if (raw === undefined) return undefined;
  const text = typeof raw === 'string' ? raw : raw;
  switch (field.kind) {
    case 'boolean':
      if (text === true || text === false) return text;
      if (/^(true|1|yes)$/i.test(String(text))) return true;
      if (/^(false|0|no)$/i.test(String(text))) return false;
      return bad('must be true or false');
    case 'integer':
      if (!NUMBER.test(String(text)) || !Number.isInteger(Number(text))) return bad('must be an integer');
      return Number(text);
    case 'number':
      if (!NUMBER.test(String(text))) return bad('must be a number');
      return Number(text);
    case 'enum':
      if (field.choices && !field.choices.includes(String(text))) return bad(`must be one of ${field.choices.join(', ')}`);
      return field.numericChoices ? Number(text) : String(text);
    case 'array': {
      const items = (Array.isArray(text) ? text : [text]).flatMap((t) => String(t).split(',')).map((s) => s.trim()).filter((s) => s !== '');
      return items.map((item) => {
        if (field.choices && !field.choices.includes(item)) return bad(`each value must be one of ${field.choices.join(', ')}`);
        if (field.itemKind === 'integer') {
          if (!NUMBER.test(item) || !Number.isInteger(Number(item))) return bad('must be a comma-separated list of integers');
          return Number(item);
        }
        if (field.itemKind === 'number') {
          if (!NUMBER.test(item)) return bad('must be a comma-separated list of numbers');
          return Number(item);
        }
        return item;
      });
    }
    case 'json':
      try {
        return JSON.parse(readMaybeFile(String(text), `--${field.flag}`));
      } catch (err) {
        if (err instanceof UsageError) throw err;
        return bad('must be JSON (or @file with JSON)');
      }
    default:
      return String(text);
  }
}

/**
 * Largest file `@path` reads into one request. The interface states no body limit; its largest
 * bounded record is a note of about 100,000 characters, so a bigger file is a mistake (a wrong path,
 * an export instead of a record), refused before it is read whole and sent.
 */
export const MAX_INPUT_FILE_BYTES = 5 * 1024 * 1024;

/** `@path` reads a file, `-` reads stdin (sync, small inputs), anything else is the value itself. */
export function readMaybeFile(value: string, flag: string): string {
  if (value === '-') return readFileSync(0, 'utf8');
  if (value.startsWith('@')) {
    const path = value.slice(1);
    let bytes: Buffer;
    try {
      const size = statSync(path).size;
      if (size > MAX_INPUT_FILE_BYTES) {
        throw new UsageError(`${flag}: ${path} is ${(size / 1024 / 1024).toFixed(1)} MB; a file given with @ may be at most ${MAX_INPUT_FILE_BYTES / 1024 / 1024} MB (one request body)`, 'To create many records from a file, use `crmctl import`.');
      }
      bytes = readFileSync(path);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new UsageError(`${flag}: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    return decodeUtf8(bytes, flag, path);
  }
  return value;
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

export function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let cur = target;
  for (const p of path.slice(0, -1)) {
    if (cur[p] === null || typeof cur[p] !== 'object') cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
}

/** Zod issues as "--flag: rule" lines; the flag name is what the user typed, or the field path for --data input. */
export function issuesToError(issues: z.core.$ZodIssue[], fields: FieldSpec[], location: string): ValidationError {
  return new ValidationError(
    issues.map((i) => {
      const key = i.path.map(String).join('.');
      const field = fields.find((f) => f.key === key) ?? fields.find((f) => key.startsWith(`${f.key}.`));
      // A missing nested object (goal assignee) is answered by its members' flags.
      const members = field ? [] : fields.filter((f) => key && f.key.startsWith(`${key}.`) && f.required);
      const name = field ? `--${field.flag}` : members.length ? members.map((m) => `--${m.flag}`).join(', ') : key ? `${location}.${key}` : location;
      return { field: name, rule: ruleText(i) };
    }),
  );
}

function ruleText(i: z.core.$ZodIssue): string {
  const iss = i as z.core.$ZodIssue & { input?: unknown; expected?: string; values?: unknown[]; minimum?: number | bigint; maximum?: number | bigint; origin?: string; inclusive?: boolean };
  // A message written in a table (superRefine, { error }) says the rule best; keep it.
  if (!/^(Too (small|big)|Invalid|Expected)/.test(i.message)) return i.message;
  const plural = (n: unknown, word: string) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;
  switch (i.code) {
    case 'invalid_type':
      return iss.input === undefined ? 'is required' : `must be ${iss.expected === 'int' ? 'an integer' : `a ${iss.expected}`}`;
    case 'invalid_value':
      if ('input' in iss && iss.input === undefined) return 'is required';
      return `must be one of ${(iss.values ?? []).map(String).join(', ')}`;
    case 'invalid_union': {
      // A union of literals (visible_to 1|3|5|7) reports each branch; list the allowed values.
      const branches = ((i as unknown as { errors?: z.core.$ZodIssue[][] }).errors ?? []).flat();
      const values = branches.flatMap((b) => ((b as { values?: unknown[] }).values ?? []).map(String));
      if (iss.input === undefined) return 'is required';
      return values.length ? `must be one of ${values.join(', ')}` : i.message;
    }
    case 'too_small':
      if (iss.origin === 'string') return `must have at least ${plural(iss.minimum, 'character')}`;
      if (iss.origin === 'array') return `must have at least ${plural(iss.minimum, 'item')}`;
      return iss.inclusive === false ? `must be greater than ${iss.minimum}` : `must be at least ${iss.minimum}`;
    case 'too_big':
      if (iss.origin === 'string') return `must have at most ${plural(iss.maximum, 'character')}`;
      if (iss.origin === 'array') return `must have at most ${plural(iss.maximum, 'item')}`;
      return iss.inclusive === false ? `must be less than ${iss.maximum}` : `must be at most ${iss.maximum}`;
    case 'invalid_format':
      return i.message.replace(/^Invalid\s*/i, 'must be a valid ');
    default:
      return i.message;
  }
}
