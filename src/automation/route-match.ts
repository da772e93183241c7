import type { Operation } from '../api/operation.js';
import { ALL_OPERATIONS } from '../api/operations/index.js';

/**
 * The operation row behind a raw method + path, so `crmctl api` can pace by the real cost and name
 * the needed scopes in a 403. /v1/x and /api/v1/x are the same route (interface, Versioning).
 */
export function matchOperation(method: string, path: string): Operation | undefined {
  const want = canonical(path.split('?')[0]!);
  let best: { op: Operation; literal: number } | undefined;
  for (const op of ALL_OPERATIONS) {
    if (op.method !== method) continue;
    const tmpl = canonical(op.path).split('/');
    const parts = want.split('/');
    if (tmpl.length !== parts.length) continue;
    let literal = 0;
    let ok = true;
    for (let i = 0; i < tmpl.length && ok; i++) {
      if (/^\{.+\}$/.test(tmpl[i]!)) ok = parts[i] !== '';
      else if (tmpl[i] === parts[i]) literal++;
      else ok = false;
    }
    // A literal segment beats a placeholder: /leads/archived is not /leads/{id}.
    if (ok && (!best || literal > best.literal)) best = { op, literal };
  }
  return best?.op;
}

function canonical(path: string): string {
  return path.replace(/\/+$/, '').replace(/^\/v1\//, '/api/v1/');
}
