import type { Operation } from '../../api/operation.js';
import { fail, pass, skip, type Finding } from './finding.js';

/** The verbs an admin reaches for first in each area: what "the common commands" means for the scope check. */
const COMMON_VERBS = new Set(['list', 'find', 'create', 'add']);

export interface CommonCommand {
  command: string;
  scopes: string[];
}

/** One entry per common command of the operation tables (top-level verb of an area), with the scopes any one of which allows it. */
export function commonCommands(ops: Operation[]): CommonCommand[] {
  const byCommand = new Map<string, CommonCommand>();
  // One entry per command: a command with a --v1 switch has two operations; its default (first) one counts.
  for (const o of ops) {
    if (o.cli.command.length !== 2 || !COMMON_VERBS.has(o.cli.command[1]!) || !o.scopes.length) continue;
    const command = o.cli.command.join(' ');
    if (!byCommand.has(command)) byCommand.set(command, { command, scopes: [...o.scopes] });
  }
  return [...byCommand.values()];
}

/** Which common commands the granted scopes cannot run, and the fewest scopes to ask for. */
export function checkScopes(granted: string[] | undefined, common: CommonCommand[], how: string): Finding {
  const title = 'Scopes';
  if (!granted) return skip('scopes', title, `${how}: the token's scopes are not known locally (a 403 names the missing scope)`);
  const have = new Set(granted);
  const blocked = common.filter((c) => !c.scopes.some((s) => have.has(s)));
  if (!blocked.length) return pass('scopes', title, `${granted.join(', ')} cover all ${common.length} common commands`);
  // The fewest scopes that unblock them all (greedy cover): leads:full covers both leads list and leads create.
  const wanted: string[] = [];
  let open = blocked;
  while (open.length) {
    const count = new Map<string, number>();
    for (const c of open) for (const s of c.scopes) count.set(s, (count.get(s) ?? 0) + 1);
    const best = [...count.entries()].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    wanted.push(best);
    open = open.filter((c) => !c.scopes.includes(best));
  }
  const list = blocked.map((c) => `${c.command} (needs ${c.scopes.join(' or ')})`).join('; ');
  return fail('scopes', title, `${blocked.length} of ${common.length} common commands will be refused (403): ${list}`, `Add ${wanted.join(', ')} to the app's scopes, then log in again: crmctl auth login`);
}
