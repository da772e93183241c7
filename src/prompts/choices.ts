import type { Operation, PromptSource } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { AuthError, CancelledError, CliError } from '../core/errors.js';
import type { Choice } from '../core/prompter.js';
import { safeText } from '../output/safe-text.js';

/** At most this many records are offered; beyond that the person types the id (choice "Other"). */
export const MAX_CHOICES = 500;

/** The list operation a hint names. Loaded on demand (a prompt is shown), never at start-up. */
export async function sourceOperation(id: string): Promise<Operation | undefined> {
  return (await import('../api/operations/index.js')).operationById(id);
}

export function pick(record: unknown, path: string): unknown {
  let cur = record;
  for (const p of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

/** `name`, or a template `{name} ({pipeline_id})`. */
export function labelOf(record: unknown, label: string): string {
  if (!label.includes('{')) return String(pick(record, label) ?? '');
  return label.replace(/\{([^}]+)\}/g, (_, key: string) => String(pick(record, key) ?? '')).trim();
}

/** `$key` values of a hint's query are taken from inputs already given. */
function resolveQuery(query: Record<string, string | number | boolean> | undefined, given: (key: string) => unknown): Record<string, unknown> | undefined {
  if (!query) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    if (typeof v === 'string' && v.startsWith('$?')) {
      const value = given(v.slice(2));
      if (value !== undefined) out[k] = value;
    } else if (typeof v === 'string' && v.startsWith('$')) {
      const value = given(v.slice(1));
      if (value === undefined) return undefined;
      out[k] = value;
    } else out[k] = v;
  }
  return out;
}

export type Loaded = { choices: Choice<unknown>[]; more: boolean } | { unavailable: string };

/**
 * Reads the account's records for a hint and turns them into choices. Any failure (missing scope,
 * a list the service does not serve, an input the query needs not given yet) is not fatal: the
 * caller falls back to typing, and says why.
 */
export async function loadChoices(ctx: Context, hint: PromptSource & { from: string }, given: (key: string) => unknown): Promise<Loaded> {
  const op = await sourceOperation(hint.from);
  if (!op) return { unavailable: `no list operation ${hint.from}` };
  const query = resolveQuery(hint.query, given);
  if (!query) return { unavailable: `${hint.from} needs ${Object.values(hint.query ?? {}).join(', ')} first` };
  try {
    const { readAll } = await import('../entry/prepare.js');
    const records: unknown[] = [];
    for await (const r of readAll(ctx, op, { query }, { limit: MAX_CHOICES + 1 })) records.push(r);
    const value = hint.value ?? 'id';
    const label = hint.label ?? 'name';
    const choices = records
      .slice(0, MAX_CHOICES)
      .filter((r) => pick(r, value) !== undefined && pick(r, value) !== null)
      .map((r) => {
        const v = pick(r, value);
        // The account's names are shown on the terminal the question is asked on.
        const name = safeText(labelOf(r, label) || String(v));
        return { name, value: v, description: safeText(`${value} ${String(v)}`) };
      });
    return { choices, more: records.length > MAX_CHOICES };
  } catch (err) {
    if (err instanceof CancelledError) throw err;
    // Not logged in (or the token is refused): asking more questions would only fail later.
    if (err instanceof AuthError && !/\(403\)/.test(err.message)) throw err;
    if (err instanceof CliError) return { unavailable: err.message };
    throw err;
  }
}
