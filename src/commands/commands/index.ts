import type { AreaModule, TreeNode } from '../../core/command.js';
import { ValidationError } from '../../core/errors.js';

/**
 * `crmctl commands`: the command tree for programs and agents at the shell (oclif's `commands --json`,
 * as MCP's tools/list is for MCP clients). A command of its own rather than `--help --json`, so that
 * help stays text for people and this may load every area.
 */
export const area: AreaModule = {
  commands: [
    {
      path: ['commands'],
      summary: 'List every command; with --json the whole tree: flags with types, operations with cost and scopes, exit and error codes',
      description:
        'For scripts and agents: with --json (or --output json) prints one JSON document (its shape: docs/agents.md and docs/command-tree.schema.json); --output ndjson prints one command per line. Give a command path to print only that part of the tree.',
      examples: ['crmctl commands --json', 'crmctl commands deals --json', 'crmctl commands deals list --output ndjson'],
      args: [{ name: 'path', description: 'a command or group, e.g. deals or deals list (default: all)', required: false, variadic: true }],
      async run(ctx, { args, program }) {
        const { commandsJson } = await import('../../docs/command-json.js');
        const node = find(await program.commandTree(), args, program.areaName);
        const doc = commandsJson(node);
        const format = ctx.globals.output;
        if (format === 'json') ctx.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
        else if (format === 'ndjson') ctx.io.stdout.write(doc.commands.map((c) => `${JSON.stringify(c)}\n`).join(''));
        else ctx.io.stdout.write(textList(doc.commands));
      },
    },
  ],
};

/** The node a path names; its first word may be an area's alias (`orgs`), the last a command's alias. */
function find(root: TreeNode, words: string[], areaName: (w: string) => string | undefined): TreeNode {
  let node = root;
  for (const [i, w] of words.entries()) {
    const name = i === 0 ? (areaName(w) ?? w) : w;
    const next = node.children.find((c) => c.path[c.path.length - 1] === name || c.aliases.includes(name));
    if (!next) {
      const where = ['crmctl', ...node.path].join(' ');
      throw new ValidationError([{ field: '<path>', rule: `'${w}' is not a command of ${where}` }], `See \`crmctl commands${node.path.length ? ` ${node.path.join(' ')}` : ''}\`.`);
    }
    node = next;
  }
  return node;
}

/** People's view: one line per runnable command with its summary. */
function textList(commands: ReadonlyArray<{ command: string; summary: string; runnable: boolean }>): string {
  const runnable = commands.filter((c) => c.runnable);
  const width = Math.max(0, ...runnable.map((c) => c.command.length));
  return runnable.map((c) => `${c.command.padEnd(width)}  ${c.summary}\n`).join('');
}
