import { ValidationError } from '../core/errors.js';
import type { FieldSpec } from './fields.js';

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Turns one flag's text into the typed value its field wants; type errors name the flag. JSON fields
 * are read by `readJsonInput` (they may come from a file or stdin) before they get here.
 */
export function coerceField(field: FieldSpec, raw: unknown): unknown {
  const bad = (rule: string): never => {
    throw new ValidationError([{ field: `--${field.flag}`, rule: `${rule} (got ${JSON.stringify(raw)})` }]);
  };
  if (raw === undefined) return undefined;
  const text = raw;
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
      // Already parsed (readJsonInput); a value typed at a prompt is JSON text.
      if (typeof text !== 'string') return text;
      try {
        return JSON.parse(text);
      } catch {
        return bad('must be JSON');
      }
    default:
      return String(text);
  }
}

export function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let cur = target;
  for (const p of path.slice(0, -1)) {
    if (cur[p] === null || typeof cur[p] !== 'object') cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
}

export function getPath(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}
