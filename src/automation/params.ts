import { pathParamNames, type Operation } from '../api/operation.js';
import { prepare, type Reader } from '../entry/prepare.js';
import { coerceField } from '../input/coerce.js';
import { fieldsOf } from '../input/fields.js';
import { PAGING_KEYS as PAGING } from '../input/operation-input.js';
import { unknownKeyRule } from '../input/unknown-keys.js';
import { ValidationError } from '../core/errors.js';

/**
 * `--param key=value` pairs → path params and query of a list operation, through the one entry
 * (its schemas and wording); issues name `--param <key>` (exit 2, nothing sent).
 */
export async function listInput(reader: Reader, op: Operation, resource: string, pairs: string[]): Promise<{ params: Record<string, unknown>; query: Record<string, unknown> }> {
  const pathNames = pathParamNames(op.path);
  const queryFields = fieldsOf(op.query, 'query').filter((f) => !PAGING.has(f.key));
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const issues: Array<{ field: string; rule: string }> = [];
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      issues.push({ field: '--param', rule: `must be key=value (got ${JSON.stringify(pair)})` });
      continue;
    }
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1);
    if (pathNames.includes(key)) {
      params[key] = /^\d+$/.test(value) ? Number(value) : value;
      continue;
    }
    const f = queryFields.find((x) => x.key === key || x.flag === key);
    if (!f) {
      issues.push({ field: `--param ${key}`, rule: unknownKeyRule(key, [...pathNames, ...queryFields.map((x) => x.key)]) });
      continue;
    }
    try {
      query[f.key] = coerceField(f, value);
    } catch (err) {
      issues.push({ field: `--param ${key}`, rule: err instanceof ValidationError ? err.issues[0]!.rule : (err as Error).message });
    }
  }
  for (const name of pathNames) {
    if (params[name] === undefined) issues.push({ field: `--param ${name}`, rule: `is required: ${resource} is listed per ${name} (e.g. --param ${name}=1)` });
  }
  if (issues.length) throw new ValidationError(issues);
  try {
    const input = await prepare(reader, op, { params, query }, { naming: 'keys' });
    return { params: input.params, query: input.query };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    throw new ValidationError(err.issues.map((i) => ({ field: `--param ${i.field}`, rule: i.rule === 'is required' ? `is required: give --param ${i.field}=<value>` : i.rule })));
  }
}
