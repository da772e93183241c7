import { readFileSync } from 'node:fs';
import { UsageError, ValidationError } from '../../core/errors.js';

export interface FieldArg {
  raw: string;
  typed: boolean;
}

/** `-F key=value` (typed) and `-f key=value` (string), in command-line order as commander gives them per flag. */
export function parseFieldArgs(typed: string[] = [], raw: string[] = []): Array<{ key: string; value: unknown }> {
  return [...typed.map((f) => ({ raw: f, typed: true })), ...raw.map((f) => ({ raw: f, typed: false }))].map(parseOne);
}

function parseOne(f: FieldArg): { key: string; value: unknown } {
  const flag = f.typed ? '-F' : '-f';
  const eq = f.raw.indexOf('=');
  if (eq <= 0) throw new ValidationError([{ field: flag, rule: `must be key=value (got ${JSON.stringify(f.raw)})` }]);
  const key = f.raw.slice(0, eq);
  const text = f.raw.slice(eq + 1);
  return { key, value: f.typed ? typedValue(text, key) : text };
}

/** gh's rules for -F: true, false, null and numbers become JSON values; @file reads the file's text. */
export function typedValue(text: string, key: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (text.startsWith('@')) {
    const file = text.slice(1);
    try {
      return file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`-F ${key}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  return text;
}

/** `a[b][]=1` / `a.b=1` → path segments; an empty segment appends to an array. */
export function keyPath(key: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (m?.[2]) return [m[1]!, ...[...m[2].matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
  return key.split('.');
}

/** Fields as a nested JSON body. */
export function toBody(fields: Array<{ key: string; value: unknown }>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const { key, value } of fields) {
    const path = keyPath(key);
    let cur: Record<string, unknown> | unknown[] = body;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i]!;
      const last = i === path.length - 1;
      const nextIsArray = !last && path[i + 1] === '';
      if (Array.isArray(cur)) {
        if (last) cur.push(value);
        else {
          const child = nextIsArray ? [] : {};
          cur.push(child);
          cur = child;
        }
        continue;
      }
      if (last) {
        if (seg === '') throw new ValidationError([{ field: key, rule: 'an empty key segment needs a parent, e.g. ids[]=1' }]);
        cur[seg] = value;
      } else {
        const existing = cur[seg];
        if (existing === undefined || existing === null || typeof existing !== 'object') cur[seg] = nextIsArray ? [] : {};
        cur = cur[seg] as Record<string, unknown> | unknown[];
      }
    }
  }
  return body;
}

/** Fields as query parameters: keys stay as written (the service takes dotted names such as period.start); `ids[]` repeats join with commas. */
export function toQuery(fields: Array<{ key: string; value: unknown }>): Record<string, string | number | boolean | Array<string | number> | null> {
  const q: Record<string, string | number | boolean | Array<string | number> | null> = {};
  for (const { key, value } of fields) {
    const v = value === null ? null : typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
    if (key.endsWith('[]')) {
      const k = key.slice(0, -2);
      const prev = q[k];
      q[k] = [...(Array.isArray(prev) ? prev : prev === undefined || prev === null ? [] : [prev as string | number]), v as string | number];
    } else q[key] = v;
  }
  return q;
}

/** `-H 'Name: value'` → header map. */
export function parseHeaders(lines: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i <= 0) throw new ValidationError([{ field: '-H', rule: `must be "Name: value" (got ${JSON.stringify(line)})` }]);
    out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}
