import { pathParamNames, type Operation } from '../api/operation.js';
import { coerceField } from '../input/coerce.js';
import { fieldsOf } from '../input/fields.js';
import { issuesToError } from '../input/issues.js';
import { PAGING_KEYS as PAGING } from '../input/operation-input.js';
import { ValidationError } from '../core/errors.js';

/** `--param key=value` pairs → validated path params and query of a list operation (exit 2 naming the param). */
export function listInput(op: Operation, resource: string, pairs: string[]): { params: Record<string, unknown>; query: Record<string, unknown> } {
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
      const known = [...pathNames, ...queryFields.map((x) => x.key)];
      issues.push({ field: `--param ${key}`, rule: `is not a parameter of ${resource}${known.length ? `; parameters: ${known.join(', ')}` : ' (it takes none)'}` });
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
  if (op.params) {
    const r = op.params.safeParse(params);
    if (!r.success) throw new ValidationError(issuesToError(r.error.issues, [], 'param').issues.map((i) => ({ field: `--param ${i.field.replace(/^param\./, '')}`, rule: i.rule })));
    Object.assign(params, r.data);
  }
  let q: Record<string, unknown> = query;
  if (op.query) {
    const r = op.query.safeParse(query);
    if (!r.success) {
      throw new ValidationError(issuesToError(r.error.issues, [], 'param').issues.map((i) => {
        const key = i.field.replace(/^param\./, '');
        return { field: `--param ${key}`, rule: i.rule === 'is required' ? `is required: give --param ${key}=<value>` : i.rule };
      }));
    }
    q = r.data as Record<string, unknown>;
  }
  return { params, query: q };
}
