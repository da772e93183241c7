import { ARGUMENT_RULES } from './effect-rules.js';
import { isRead, type Effect, type OperationSpec } from './operation.js';

/**
 * What an operation does to the account, by effect rather than HTTP method: a PATCH can deactivate a
 * user, a POST archive a project, a PUT empty a team. The one classification every door reads (crmctl
 * mcp's policy and tool hints, its docs); decided from the row (`effect`, else a GET reads and a DELETE
 * or a confirmed verb destroys) and, where an argument decides, from the rules of effect-rules.ts.
 */

type Classified = Pick<OperationSpec, 'method' | 'effect' | 'cli'> & { id: string };

/** The class of the operation whatever its arguments (a call may still be destructive by its rules). */
export function operationEffect(op: Classified): Effect {
  if (op.effect) return op.effect;
  if (isRead(op)) return 'read';
  return op.method === 'DELETE' || op.cli.confirm ? 'destructive' : 'write';
}

/** What makes a call of this operation destructive, when its arguments decide ([] when they do not). */
export function destructiveWhen(op: Pick<Classified, 'id'>): string[] {
  return (ARGUMENT_RULES[op.id] ?? []).map((r) => r.why);
}

/** Destructive as a whole, or by some arguments: what a client is told to confirm (MCP destructiveHint). */
export function mayDestroy(op: Classified): boolean {
  return operationEffect(op) === 'destructive' || destructiveWhen(op).length > 0;
}

/** The class of one call, and why it is destructive when its arguments make it so. */
export function callEffect(op: Classified, body: unknown): { effect: Effect; why: string[] } {
  const effect = operationEffect(op);
  if (effect !== 'write' || !body || typeof body !== 'object' || Array.isArray(body)) return { effect, why: [] };
  const why = (ARGUMENT_RULES[op.id] ?? []).filter((r) => r.when(body as Record<string, unknown>)).map((r) => r.why);
  return why.length ? { effect: 'destructive', why } : { effect, why };
}
