import type { Operation } from '../api/operation.js';

/** "Calls:" block shown in --help and docs: what reaches the service and what it costs. */
export function operationHelp(ops: Operation[]): string {
  const lines = ops.map(
    (op) =>
      `  ${op.method} ${op.path}  (cost ${op.cost ?? 'not stated'}; scopes: ${op.scopes.join(' | ') || 'none'}${op.beta ? '; beta' : ''})`,
  );
  return `Calls:\n${lines.join('\n')}`;
}
