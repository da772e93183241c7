import { once } from '../core/once.js';
import * as z from 'zod/mini';
import english from 'zod/v4/locales/en.js';

// zod/mini rather than zod's classic API: the same schemas and checks without ~40 methods attached to
// every schema instance, and a bundle a command can load in a fraction of the time (issue 19, start-up).
// zod/mini loads no locale: English gives the messages ruleText (src/input/issues.ts) rewrites.
// jitless: zod compiles a fast parser (new Function) for each object schema on its first parse; a
// command parses its input once, so compiling costs more than it saves.
z.config({ ...english(), jitless: true });

/** Building blocks shared by the operation tables; each carries the rule the interface states. */
// min(1) rather than positive(): same rule, but the message reads "must be at least 1" instead of "at least 0".
export const id = once(() => z.int().check(z.gte(1)));
/**
 * An integer id in a path. Typed on the command line it is text ("12"): validateInput turns numeric
 * text into a number before this sees it, so "abc" and "0" get this message rather than a type error.
 */
export const pathId = once(() => z.int({ error: 'must be a positive integer id' }).check(z.gte(1, { error: 'must be a positive integer id' })));
export const uuid = once(() => z.guid({ error: 'must be a UUID' }));
// abort: zod runs every check of a string even after one failed, so "nope" would also be "not a real date".
export const isoDate = once(() => z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date YYYY-MM-DD', abort: true })).check(z.refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), { error: 'must be a real calendar date YYYY-MM-DD' })));
/** RFC 3339 / ISO 8601 date-time (a bare date is accepted where the service takes one). */
export const dateTime = once(() => z.string().check(z.refine((s) => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(s)), {
  error: 'must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z',
})));
export const flag01 = once(() => z.union([z.literal(0), z.literal(1)]));
/** visible_to values of the interface's visibility table. */
export const visibleTo = once(() => z.enum(['1', '3', '5', '7']));
export const visibleToNumber = once(() => z.union([z.literal(1), z.literal(3), z.literal(5), z.literal(7)]));
export const currency = once(() => z.string().check(z.regex(/^[A-Za-z]{3}$/, { error: 'must be a 3-letter currency code' })));

/** `field ASC, other DESC` with fields from an allowed list (custom-field hashes allowed when `custom`). */
export function sortString(fields: readonly string[], custom = false) {
  return z.string().check(z.refine((s) =>
      s.split(',').every((part) => {
        const m = /^\s*([A-Za-z0-9_]+)(\s+(ASC|DESC))?\s*$/i.exec(part);
        return Boolean(m) && (fields.includes(m![1]!) || (custom && /^[0-9a-f]{40}$/.test(m![1]!)));
      }), { error: `must be "field ASC|DESC" pairs, comma separated; fields: ${fields.join(', ')}${custom ? ', or a custom field key' : ''}` }));
}

/** Search term: at least 2 characters, or 1 with exact_match (interface Limits table). */
export function searchQuery<T extends z.core.$ZodShape>(shape: T) {
  return z.object(shape).check(z.superRefine((q: Record<string, unknown>, ctx) => {
    const term = q.term;
    if (typeof term !== 'string') return;
    const min = q.exact_match === true ? 1 : 2;
    if (term.trim().length < min) {
      ctx.addIssue({ code: 'custom', path: ['term'], message: `must have at least ${min} character${min > 1 ? 's' : ''}${min > 1 ? ' (1 with --exact-match)' : ''}` });
    }
  }));
}

/**
 * A list query whose saved filter makes the service ignore other filters: the CLI refuses the mix
 * rather than send filters that silently do nothing (docs/interface-deviations.md). In the query
 * schema, so every door (command, MCP, export) holds it.
 */
export function filterWins(winner: string, ignored: readonly string[]) {
  return (q: Record<string, unknown>, ctx: z.core.$RefinementCtx) => {
    if (q[winner] === undefined) return;
    for (const k of ignored) {
      if (q[k] !== undefined) ctx.addIssue({ code: 'custom', path: [k], message: `is ignored by the service when --${winner.replace(/_/g, '-')} is given (the filter wins); drop one of them` });
    }
  };
}

export const offsetQuery = once(() => ({ start: z.optional(z.int().check(z.gte(0))), limit: z.optional(z.int().check(z.gte(1)).check(z.lte(500))) }));
export function cursorQuery(max = 500) {
  return { cursor: z.optional(z.string()), limit: z.optional(z.int().check(z.gte(1)).check(z.lte(max))) };
}
