import { ValidationError } from '../core/errors.js';
import { nearest } from '../input/unknown-keys.js';

// A filter condition as people write it: `NAME OP VALUE` ("Budget > 1000", "Stage = Qualified",
// "Expected close date is empty"), at any door (`--where`, a `where` key of --data, a fixture or an MCP
// call). This file only splits the words; where-resolve.ts turns the name,
// the operator and the value into the service's condition (field id, operator, option id).

/** The operators people write, and the service's for each (its documents list only the latter). */
export const WHERE_OPERATORS: Readonly<Record<string, string>> = {
  '=': '=', '!=': '!=', '<': '<', '>': '>', '<=': '<=', '>=': '>=',
  'is empty': 'IS NULL', 'is not empty': 'IS NOT NULL',
  'starts with': "LIKE '$%'", contains: "LIKE '%$%'", 'does not start with': "NOT LIKE '$%'",
};
const WORDS = Object.keys(WHERE_OPERATORS).filter((o) => /[a-z]/.test(o)).sort((a, b) => b.length - a.length);
/** Operators that take no value. */
export const NO_VALUE = new Set(['is empty', 'is not empty']);

export interface WhereClause {
  /** The clause as given (for messages). */
  text: string;
  /** How refusals name the input it came from (`--where`, `arguments.where[0]`). */
  flag: string;
  name: string;
  op: string;
  value: string | undefined;
}

const problem = (flag: string, text: string, rule: string) => new ValidationError([{ field: `${flag} "${text}"`, rule }]);

/**
 * Splits a clause. `fieldNames` are the item type's field names: a clause whose operator is misspelt
 * ("Stage iss empty") is found by its leading field name, so the operator can be named with the nearest.
 */
export function parseWhere(flag: string, text: string, fieldNames: readonly string[]): WhereClause {
  const t = text.trim();
  const sym = /\s*([<>=!]+)\s*/.exec(t);
  const word = new RegExp(`\\s+(${WORDS.map((w) => w.replace(/ /g, '\\s+')).join('|')})(?=\\s|$)\\s*`, 'i').exec(t);
  const hit = [sym, word].filter((m): m is RegExpExecArray => m !== null && m.index > 0).sort((a, b) => a.index - b.index)[0];
  if (hit) {
    const op = hit[1]!.toLowerCase().replace(/\s+/g, ' ');
    if (!(op in WHERE_OPERATORS)) throw problem(flag, text, unknownOperator(op));
    const name = t.slice(0, hit.index).trim();
    const rest = t.slice(hit.index + hit[0].length).trim();
    const value = unquote(rest);
    if (NO_VALUE.has(op) && rest) throw problem(flag, text, `"${op}" takes no value (got "${rest}")`);
    if (!NO_VALUE.has(op) && !rest) throw problem(flag, text, `"${op}" needs a value after it, e.g. "${name} ${op} 1000"`);
    return { text, flag, name, op, value: NO_VALUE.has(op) ? undefined : value };
  }
  // No operator found: a known field name at the start tells where the operator should have been.
  const lower = t.toLowerCase();
  const field = [...fieldNames].sort((a, b) => b.length - a.length).find((n) => lower.startsWith(`${n.toLowerCase()} `));
  if (field) {
    const rest = t.slice(field.length).trim();
    const words = rest.split(/\s+/);
    const tries = words.map((_, i) => words.slice(0, i + 1).join(' ').toLowerCase());
    const best = tries.map((w) => ({ w, near: nearest(w, Object.keys(WHERE_OPERATORS)) })).find((x) => x.near);
    throw problem(flag, text, best ? unknownOperator(best.w, best.near) : unknownOperator(words[0]!.toLowerCase()));
  }
  throw problem(flag, text, `write NAME OPERATOR VALUE, e.g. "Budget > 1000" or "Stage = Qualified"; operators: ${Object.keys(WHERE_OPERATORS).join(', ')}`);
}

function unknownOperator(op: string, near = swapped(op) ?? nearest(op, Object.keys(WHERE_OPERATORS))): string {
  return `unknown operator "${op}"${near ? ` (did you mean "${near}"?)` : ''}; operators: ${Object.keys(WHERE_OPERATORS).join(', ')}`;
}

/** "=>" and "=<" are ">=" and "<=" written backwards. */
function swapped(op: string): string | undefined {
  const sorted = (s: string) => [...s].sort().join('');
  return Object.keys(WHERE_OPERATORS).find((o) => o.length === op.length && o !== op && !/[a-z]/.test(o) && sorted(o) === sorted(op));
}

function unquote(s: string): string {
  const m = /^(["'])(.*)\1$/s.exec(s);
  return m ? m[2]! : s;
}
