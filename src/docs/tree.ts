import type { Command, Option } from 'commander';
import { PassThrough } from 'node:stream';
import { SPEC, type CommandSpec, type TreeNode, type TreeOption } from '../core/command.js';
import type { IO } from '../core/io.js';

export { flatten, type TreeNode, type TreeOption } from '../core/command.js';

/** A silent IO: building the tree for docs must print nothing. */
export function quietIO(): IO {
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

/** The tree of a built program (program.ts commandTree() builds it with every area loaded). */
export function treeOf(root: Command): TreeNode {
  return walk(root, []);
}
