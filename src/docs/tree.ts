import type { Command, Option } from 'commander';
import { PassThrough } from 'node:stream';
import type { CommandSpec } from '../core/command.js';
import type { IO } from '../core/io.js';
import { buildProgram, SPEC } from '../program.js';

export interface TreeOption {
  flags: string;
  long?: string;
  short?: string;
  description: string;
  choices?: string[];
  takesValue: boolean;
}

export interface TreeNode {
  /** Full path without "crmctl": ['leads', 'list']. */
  path: string[];
  aliases: string[];
  summary: string;
  options: TreeOption[];
  args: Array<{ name: string; required: boolean }>;
  help: string;
  spec?: CommandSpec;
  children: TreeNode[];
}

/** A silent IO: building the tree for docs must print nothing. */
function quietIO(): IO {
  const sink = new PassThrough();
  sink.resume();
  return { stdin: new PassThrough(), stdout: sink, stderr: sink, isStdinTTY: false, isStdoutTTY: false, isStderrTTY: false, columns: 100 };
}

function optionOf(o: Option): TreeOption {
  return {
    flags: o.flags,
    long: o.long ?? undefined,
    short: o.short ?? undefined,
    description: o.description,
    choices: o.argChoices ? [...o.argChoices] : undefined,
    takesValue: o.required || o.optional,
  };
}

function walk(cmd: Command, path: string[]): TreeNode {
  const visible = (c: Command) => !(c as unknown as { _hidden?: boolean })._hidden;
  return {
    path,
    aliases: cmd.aliases(),
    summary: cmd.description().split('\n')[0] ?? '',
    options: cmd.options.filter((o) => !o.hidden).map(optionOf),
    args: cmd.registeredArguments.map((a) => ({ name: a.name(), required: a.required })),
    help: cmd.helpInformation({ error: false }),
    spec: (cmd as Command & { [SPEC]?: CommandSpec })[SPEC],
    children: cmd.commands.filter(visible).map((c) => walk(c, [...path, c.name()])),
  };
}

/** The whole command tree with every area loaded (docs, completions, tests). */
export async function commandTree(): Promise<TreeNode> {
  const io = quietIO();
  const root = await buildProgram([], io, { COLUMNS: '100' }, { onContext: () => undefined }, { all: true });
  return walk(root, []);
}

export function flatten(node: TreeNode): TreeNode[] {
  return [node, ...node.children.flatMap(flatten)];
}
