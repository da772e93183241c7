import type { Command } from 'commander';
import type { CommandSpec } from '../core/command.js';
import { shellLine } from '../core/shell-quote.js';

/**
 * An option given to a group (`crmctl search --term x`) usually belongs to one of its commands: the
 * unknown-option error then says which, as the full command line to run instead.
 */
export function hintSubcommandOptions(group: Command, argv: readonly string[], specOf: (c: Command) => CommandSpec | undefined): void {
  const g = group as Command & { unknownOption(flag: string): void };
  const original = g.unknownOption.bind(g);
  g.unknownOption = (flag: string) => {
    const name = flag.split('=')[0]!;
    const owners = name.startsWith('--') ? leaves(group).filter(({ cmd }) => optionNames(specOf(cmd)).includes(name)) : [];
    if (!owners.length) return original(flag);
    const lines = owners.map(({ words }) => `crmctl ${shellLine(withWords(argv, path(group), words))}`);
    const hint = lines.length === 1 ? `hint: did you mean: ${lines[0]}` : `hint: did you mean one of:\n${lines.map((l) => `  ${l}`).join('\n')}`;
    g.error(`error: unknown option '${flag}'\n${hint}`, { code: 'commander.unknownOption', exitCode: 2 });
  };
}

/**
 * Flags people bring from other tools, and what crmctl has instead. `--jq` (gh's) said only
 * `unknown option` (issue 29.5); crmctl filters output with --query, a JMESPath expression.
 */
const FOREIGN_FLAGS: Readonly<Record<string, string>> = {
  '--jq': 'crmctl filters output with --query, a JMESPath expression (as aws and az do), e.g. --query "[].id"; see `crmctl help output`. Or pipe --json to jq.',
};

/** An unknown flag known from another tool gets the error that names crmctl's own (every command: root, groups, leaves). */
export function hintForeignFlags(cmd: Command): void {
  const c = cmd as Command & { unknownOption(flag: string): void };
  const original = c.unknownOption.bind(c);
  c.unknownOption = (flag: string) => {
    const instead = FOREIGN_FLAGS[flag.split('=')[0]!];
    if (!instead) return original(flag);
    c.error(`error: unknown option '${flag}': ${instead}`, { code: 'commander.unknownOption', exitCode: 2 });
  };
}

/** Runnable commands under a group, with their words below it. */
function leaves(group: Command, above: string[] = []): Array<{ cmd: Command; words: string[] }> {
  return group.commands.flatMap((c) => (c.commands.length ? leaves(c, [...above, c.name()]) : [{ cmd: c, words: [...above, c.name()] }]));
}

function optionNames(spec: CommandSpec | undefined): string[] {
  return (spec?.options ?? []).flatMap((o) => o.flags.match(/--[a-z0-9-]+/gi) ?? []);
}

function path(c: Command): string[] {
  const out: string[] = [];
  for (let cur: Command | null = c; cur?.parent; cur = cur.parent) out.unshift(cur.name());
  return out;
}

/** The command line with the subcommand's words after the group's own (its words appear in order). */
function withWords(argv: readonly string[], groupPath: string[], words: string[]): string[] {
  let at = 0;
  for (const w of groupPath) {
    const i = argv.indexOf(w, at);
    if (i < 0) return [...groupPath, ...words, ...argv.filter((a) => !groupPath.includes(a))];
    at = i + 1;
  }
  return [...argv.slice(0, at), ...words, ...argv.slice(at)];
}
