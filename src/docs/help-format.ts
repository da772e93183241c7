import type { CommandSpec, OperationRef } from '../core/command.js';
import { deprecationPhrase } from '../core/deprecation.js';

/** "Calls:" block shown in --help and docs: what reaches the service and what it costs. */
export function operationHelp(ops: readonly OperationRef[]): string {
  const lines = ops.flatMap((op) => [
    `  ${op.method} ${op.path}  (cost ${op.cost ?? 'not stated'}; scopes: ${op.scopes.join(' | ') || 'none'}${op.beta ? '; beta' : ''})`,
    ...(op.deprecated ? [`    deprecated: ${deprecationPhrase(op.deprecated)}`] : []),
  ]);
  return `Calls:\n${lines.join('\n')}`;
}

/** The verbs whose examples best show a group first: reading before writing. */
const EXAMPLE_VERBS = ['list', 'get', 'create'];

/**
 * Examples for a group's own page (`crmctl deals --help`, `crmctl deals products --help`), taken from
 * the commands under it so that every area and group gets some without hand-written text: the first
 * example of its list, get and create commands, or of its first commands when it has none of those.
 */
export function groupExamples(specs: ReadonlyArray<Pick<CommandSpec, 'path' | 'examples' | 'hidden'>>, prefix: readonly string[], max = 3): string[] {
  const under = specs.filter((s) => !s.hidden && s.examples.length && s.path.length > prefix.length && prefix.every((w, i) => s.path[i] === w));
  const direct = under.filter((s) => s.path.length === prefix.length + 1);
  const preferred = EXAMPLE_VERBS.flatMap((verb) => direct.filter((s) => s.path[prefix.length] === verb));
  const chosen = [...preferred, ...under.filter((s) => !preferred.includes(s))].slice(0, max);
  return chosen.map((s) => s.examples[0]!);
}
