import { rowsOf, type Operation } from '../api/operation.js';
import type { AreaModule, CommandSpec } from '../core/command.js';
import { commandFromOperation, switchedCommand, type CommandExtension } from './operation-command.js';

export interface AreaOptions<K extends string> {
  /** Additions to generated commands, by the key of their (primary) operation. */
  extend?: Partial<Record<K, CommandExtension>>;
  /** Hand-written commands (for operations marked `cli.handWritten`, or that call several operations). */
  commands?: CommandSpec[];
  /** Summaries for intermediate groups, e.g. { 'notes comments': 'Comments on notes' }. */
  groups?: Record<string, string>;
}

/**
 * An area's commands from its table: one generated command per command path (forms of one job
 * that share a path become one command with a switch flag), plus hand-written ones. Operations marked
 * `handWritten` get no generated command; that is the only way one is replaced.
 */
export function defineArea<T extends Record<string, Operation>>(tables: T | T[], opts: AreaOptions<keyof T & string> = {}): AreaModule {
  const rows = (Array.isArray(tables) ? tables : [tables]).flatMap((t) => rowsOf(t));
  const extensions: Partial<Record<string, CommandExtension>> = opts.extend ?? {};
  const byPath = new Map<string, Operation[]>();
  for (const op of rows) {
    if (op.cli.handWritten) continue;
    const key = op.cli.command.join(' ');
    byPath.set(key, [...(byPath.get(key) ?? []), op]);
  }
  const generated: CommandSpec[] = [];
  for (const [path, ops] of byPath) {
    const primary = ops.filter((o) => !o.cli.switch);
    if (primary.length !== 1) throw new Error(`internal: command "${path}" needs exactly one operation without cli.switch (has ${primary.length})`);
    const ext = extensions[primary[0]!.key];
    const alternates = ops.filter((o) => o.cli.switch);
    generated.push(alternates.length ? switchedCommand(primary[0]!, alternates, ext) : commandFromOperation(primary[0]!, ext));
  }
  const commands = [...generated, ...(opts.commands ?? [])];
  const seen = new Set<string>();
  for (const c of commands) {
    const key = c.path.join(' ');
    if (seen.has(key)) throw new Error(`internal: two commands at "${key}": mark the operation cli.handWritten instead of registering both`);
    seen.add(key);
  }
  return { commands, groups: opts.groups };
}
