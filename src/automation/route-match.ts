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

/** `/api/v1/leads/{id}` and `/api/v1/leads/5` both read as `/api/v1/leads/{}`. */
function shape(path: string): string[] {
  return canonical(path.split('?')[0]!).split('/').map((s) => (/^\{.+\}$/.test(s) ? '{}' : s));
}

/** Known paths of the tables, as the service writes them (`/api/v1/...` form), sorted. */
export function knownPaths(): string[] {
  return [...new Set(ALL_OPERATIONS.map((op) => canonical(op.path)))].sort();
}

/** Edit distance between two strings (small inputs: paths). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/**
 * Why a method + path is no operation of the tables, in words: the methods the path does take, or
 * the nearest known path (segments that look like ids compared as placeholders).
 */
export function explainUnknown(method: string, path: string): string {
  const want = canonical(path.split('?')[0]!);
  const methods = [...new Set(ALL_OPERATIONS.filter((op) => matchesPath(op.path, want)).map((op) => op.method))];
  if (methods.length) return `${method} is not an operation of ${want}; it takes ${methods.join(', ')}`;
  const given = shape(want).map((s) => (/^\d+$|^[0-9a-f-]{36}$/i.test(s) ? '{}' : s)).join('/');
  let best: { path: string; d: number } | undefined;
  for (const p of knownPaths()) {
    const d = distance(given, shape(p).join('/'));
    if (!best || d < best.d) best = { path: p, d };
  }
  return `${want} is not a path of the service's operations${best ? `; the nearest is ${best.path}` : ''}`;
}

function matchesPath(template: string, want: string): boolean {
  const t = canonical(template).split('/');
  const p = want.split('/');
  return t.length === p.length && t.every((s, i) => (/^\{.+\}$/.test(s) ? p[i] !== '' : s === p[i]));
}
