import type { Context } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import { tsvCell } from './cells.js';

/**
 * --query EXPR: a JMESPath expression (the language of `aws --query` and `az --query`) applied to
 * the document a command prints with --json (a list's array, a record's object, a report's summary).
 * This module and the library load only when the flag is given (docs/output.md says why JMESPath and
 * what it costs). The result prints as JSON; with `-o tsv` as text, the way `aws --output text` does
 * (a string as a TSV cell, a list one item per line, a list of lists or objects one tab-separated row each), so a
 * script can read an id without a JSON parser; `-o ndjson` prints a list one item per line. The
 * command itself runs with json output (core/globals.ts parseQuery), so the query sees the service's
 * records, never a table's presentation.
 */

interface JmesPath {
  compile(expr: string): unknown;
  search(data: unknown, expr: string): unknown;
}

async function library(): Promise<JmesPath> {
  const mod = (await import('jmespath')) as unknown as JmesPath & { default?: JmesPath };
  return mod.default ?? mod;
}

/** Refuses (exit 2) a query that does not parse; called before anything is read or sent. */
export async function checkQuery(ctx: Pick<Context, 'globals'>): Promise<void> {
  const expr = ctx.globals.query?.expr;
  if (expr === undefined) return;
  if (ctx.globals.fields) throw new UsageError('--query and --fields cannot be combined: pick the fields in the query, e.g. --query "[].{id: id, name: name}"');
  try {
    (await library()).compile(expr);
  } catch (err) {
    throw new UsageError(`--query: not a valid JMESPath expression: ${reason(err)} (in ${JSON.stringify(expr)})`, 'See https://jmespath.org/tutorial.html for the syntax.');
  }
}

/** The text the query's result prints as (the caller writes it: this module prints nothing itself). */
export async function queriedText(ctx: Pick<Context, 'globals'>, doc: unknown): Promise<string> {
  const { expr, as } = ctx.globals.query!;
  let result: unknown;
  try {
    result = (await library()).search(doc, expr);
  } catch (err) {
    // A function given the wrong type (abs() of a string) is found only on the data.
    throw new UsageError(`--query: ${reason(err)} (in ${JSON.stringify(expr)})`);
  }
  if (as === 'text') return textLines(result).map((l) => `${l}\n`).join('');
  if (as === 'ndjson') return (Array.isArray(result) ? result : [result]).map((v) => `${JSON.stringify(v)}\n`).join('');
  return `${JSON.stringify(result, null, 2)}\n`;
}

/** `aws --output text`: scalars raw, a list one line per item, an item that is a list or object as tab-separated values. */
function textLines(v: unknown): string[] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v.flatMap((item) => (Array.isArray(item) || isObject(item) ? [rowText(item)] : textLines(item)));
  if (isObject(v)) return [rowText(v)];
  return [scalarText(v)];
}

function rowText(v: unknown[] | Record<string, unknown>): string {
  return (Array.isArray(v) ? v : Object.values(v)).map((x) => scalarText(x !== null && typeof x === 'object' ? JSON.stringify(x) : x)).join('\t');
}

/**
 * A value as a TSV cell, like every other TSV crmctl prints (output/cells.ts): a tab or newline would
 * break the row into cells or lines, so it is escaped; other control characters are shown as escapes
 * (the text reaches a terminal); a formula gets its apostrophe (the text reaches spreadsheets too).
 */
function scalarText(v: unknown): string {
  return v === null || v === undefined ? '' : tsvCell(String(v));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function reason(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.replace(/^TypeError: /, '');
}
