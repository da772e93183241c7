import { Command, Option } from 'commander';
import { SPEC, type AreaModule, type CommandSpec, type ProgramInfo, type TreeNode } from './core/command.js';
import type { Context } from './core/context.js';
import { createContext } from './runtime/create-context.js';
import { GLOBAL_FLAGS, VALUE_FLAG_WORDS } from './core/global-flags.js';
import { parseFieldList, parseOutputFormat, parseQuery, type GlobalOptions } from './core/globals.js';
import { VERSION } from './core/version.js';
import type { IO } from './core/io.js';
import { AREAS, findArea, type AreaEntry } from './commands/areas.js';
import { groupExamples, operationHelp } from './docs/help-format.js';
import { hintForeignFlags, hintSubcommandOptions } from './commands/subcommand-hint.js';
import { safeLines } from './output/safe-text.js';

export interface ProgramHooks {
  /** Receives the context of the command that ran, so main can close it. */
  onContext(ctx: Context): void;
  /** The command line as typed (before main takes --no-color out or turns `help X` into `X --help`): every context's argv. */
  argv: readonly string[];
  /** Commander's usage errors are not printed: main reports them as JSON (json/ndjson output). */
  quietUsageErrors?: boolean;
}

/** Root command with the global flags; program options are accepted before and after subcommands. */
export function createRoot(io: IO, quietUsageErrors = false): Command {
  const root = new Command('crmctl')
    .description('Administer a sales-CRM account: leads, deals, organizations, roles, webhooks, fields, goals and more.\nTry it with no account: `crmctl sandbox start`.')
    .version(VERSION, '-V, --version');
  // --no-color is taken out of argv by main (so that a resource's own --color flag stays free); help says so below.
  for (const g of GLOBAL_FLAGS.filter((f) => f.name !== 'no-color')) {
    const opt = new Option(g.flags, g.description);
    if (g.choices) opt.choices(g.choices);
    root.addOption(opt);
  }
  root
    .showSuggestionAfterError(true)
    // Every command's --help also lists --json, --fields, --profile... (and so do the generated docs).
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // Commander quotes the words of the command line in its errors: shown safe like every message.
      outputError: (s, write) => (quietUsageErrors ? undefined : write(safeLines(s))),
    })
    .exitOverride();
  hintForeignFlags(root);
  root.addHelpText('after', '\nAlso: --no-color (or NO_COLOR=1) turns colours off everywhere.\n\nExamples:\n  $ crmctl sandbox start --seed demo\n  $ crmctl auth login --profile sandbox\n  $ crmctl leads list --json\n\nMore: crmctl help environment | output | exit-codes');
  return root;
}

export function globalsFrom(cmd: Command, env: NodeJS.ProcessEnv): GlobalOptions {
  const o = cmd.optsWithGlobals() as Record<string, unknown>;
  const given = o.json ? 'json' : o.output ? parseOutputFormat(String(o.output)) : undefined;
  const { query, output } = o.query !== undefined ? parseQuery(String(o.query), given) : { query: undefined, output: given };
  return {
    // The flag only: config/store.ts resolveProfileName weighs CRMCTL_PROFILE and the stored default.
    profile: o.profile as string | undefined,
    output,
    fields: o.fields ? parseFieldList(String(o.fields)) : undefined,
    query,
    // --no-color is taken out of argv by main (so that a resource's own --color flag stays free).
    color: env.CRMCTL_NO_COLOR !== '1',
    debug: Boolean(o.debug) || env.CRMCTL_DEBUG === '1',
    yes: Boolean(o.yes),
    noInput: o.input === false,
    showSecrets: Boolean(o.showSecrets),
  };
}

/** Adds one area's commands under the root, creating intermediate groups as needed. */
/**
 * Adds an area's commands. With `words` (the command line's words), only the commands those words
 * can name get their flags: working out a command's flags converts its schemas, and an area has up
 * to 40 commands of which one runs. A command is named when its path words appear in order among
 * the words (flag values in between do not matter); the others show in help with their summaries.
 */
export function addArea(root: Command, entry: AreaEntry, mod: AreaModule, io: IO, env: NodeJS.ProcessEnv, hooks: ProgramHooks, words?: string[]): Command {
  const top = root.command(entry.name).description(entry.summary);
  for (const a of entry.aliases ?? []) top.alias(a);
  top.configureOutput(root.configureOutput());
  top.exitOverride();
  const specOf = (c: Command) => (c as Command & { [SPEC]?: CommandSpec })[SPEC];
  hintSubcommandOptions(top, words ?? [], specOf);
  hintForeignFlags(top);
  const groups = new Map<string, Command>([[entry.name, top]]);
  const chosen = words ? runnable(mod.commands, words) : [];
  for (const spec of chosen.length ? chosen : mod.commands) {
    let parent = top;
    for (let i = 1; i < spec.path.length - 1; i++) {
      const key = spec.path.slice(0, i + 1).join(' ');
      let g = groups.get(key);
      if (!g) {
        g = parent.command(spec.path[i]!).description(mod.groups?.[key] ?? `${spec.path[i]} commands`);
        g.configureOutput(root.configureOutput());
        g.exitOverride();
        hintSubcommandOptions(g, words ?? [], specOf);
        hintForeignFlags(g);
        groups.set(key, g);
      }
      parent = g;
    }
    const full = !words || named(spec, words);
    if (spec.path.length === 1) {
      // The area itself is runnable (e.g. `crmctl doctor`).
      wire(top, spec, io, env, hooks, full);
    } else {
      const cmd = parent.command(spec.path[spec.path.length - 1]!);
      wire(cmd, spec, io, env, hooks, full);
    }
  }
  // A group's page (`crmctl deals --help`) lists its commands; its examples are taken from them.
  for (const [key, group] of chosen.length ? [] : groups) {
    if ((group as Command & { [SPEC]?: CommandSpec })[SPEC]?.examples.length) continue;
    const examples = groupExamples(mod.commands, key.split(' '));
    if (examples.length) group.addHelpText('after', examplesBlock(examples));
  }
  return top;
}

function examplesBlock(examples: readonly string[]): string {
  return `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}`;
}

/** The whole command tree with every area loaded (docs, completions, tests). */
export async function commandTree(): Promise<TreeNode> {
  // Imported here, not at the top: only docs, completion and tests walk the tree.
  const { quietIO, treeOf } = await import('./docs/tree.js');
  return treeOf(await buildProgram([], quietIO(), { COLUMNS: '100' }, { onContext: () => undefined, argv: [] }, { all: true }));
}

/** What commands may ask about the program they run in (core/command.ts ProgramInfo). */
export const programInfo: ProgramInfo = { commandTree, areaName: (word) => findArea(word)?.name };

/**
 * Descriptions are written as source lines; commander wraps to the terminal itself, so a single line
 * break inside a paragraph becomes a space (blank lines and list items starting with "-" stay).
 */
function reflow(text: string): string {
  return text.replace(/([^\n])\n(?![\n\-\s])/g, '$1 ');
}

/**
 * The commands a command line runs: those it names whose word after the area is the one commander
 * dispatches on (`deals list` of `crmctl deals list --json`). Only they are built: an area has up to
 * 40 commands and building each costs start-up. None (a group's page, a typo, an area that runs
 * itself): the caller builds them all, for help and suggestions.
 */
function runnable(commands: CommandSpec[], words: string[]): CommandSpec[] {
  if (commands.some((c) => c.path.length === 1)) return [];
  const area = firstCommandWord(words);
  const sub = area === undefined ? undefined : firstCommandWord(words.slice(words.indexOf(area) + 1));
  if (sub === undefined) return [];
  return commands.filter((c) => (c.path[1] === sub || (c.path.length === 2 && c.aliases?.includes(sub))) && named(c, words));
}

/** Do the words name this command (its path after the area, in order, an alias for the last word)? */
function named(spec: CommandSpec, words: string[]): boolean {
  let at = words.indexOf(spec.path[0]!) + 1 || 1;
  for (let i = 1; i < spec.path.length; i++) {
    const accepted = i === spec.path.length - 1 ? [spec.path[i]!, ...(spec.aliases ?? [])] : [spec.path[i]!];
    while (at < words.length && !accepted.includes(words[at]!)) at++;
    if (at >= words.length) return false;
    at++;
  }
  return true;
}

function wire(cmd: Command, spec: CommandSpec, io: IO, env: NodeJS.ProcessEnv, hooks: ProgramHooks, full = true): void {
  (cmd as Command & { [SPEC]?: CommandSpec })[SPEC] = spec;
  cmd.description(spec.summary + (spec.description ? `\n\n${reflow(spec.description)}` : ''));
  cmd.summary(spec.summary);
  for (const a of spec.aliases ?? []) cmd.alias(a);
  if (spec.hidden) (cmd as unknown as { _hidden: boolean })._hidden = true;
  for (const a of spec.args ?? []) {
    const name = a.variadic ? `${a.name}...` : a.name;
    cmd.argument(a.required === false ? `[${name}]` : `<${name}>`, a.description);
  }
  for (const o of full ? (spec.options ?? []) : []) {
    const opt = new Option(o.flags, o.description);
    if (o.choices) opt.choices(o.choices);
    if (o.defaultValue !== undefined) opt.default(o.defaultValue);
    if (o.repeatable) opt.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
    if (o.hidden) opt.hideHelp();
    cmd.addOption(opt);
  }
  cmd.configureOutput(cmd.parent?.configureOutput() ?? {});
  cmd.exitOverride();
  hintForeignFlags(cmd);
  const after = [
    spec.examples.length ? examplesBlock(spec.examples) : '',
    spec.operations?.length ? `\n${operationHelp(spec.operations)}` : '',
    spec.fields?.length ? `\nJSON fields: ${spec.fields.join(', ')}` : '',
  ].join('');
  if (after) cmd.addHelpText('after', after);
  cmd.action(async (...actionArgs: unknown[]) => {
    const self = actionArgs[actionArgs.length - 1] as Command;
    const args = actionArgs.slice(0, -2).flatMap((a) => a as string | string[]) as string[];
    const ctx = createContext(io, env, globalsFrom(self, env), hooks.argv);
    hooks.onContext(ctx);
    // A query that does not parse is refused before anything is read or sent; the library loads only with the flag.
    if (ctx.globals.query !== undefined) await (await import('./output/query.js')).checkQuery(ctx);
    await spec.run(ctx, { args, opts: self.opts(), program: programInfo });
  });
}

/**
 * Builds the tree for one command line. Only the area named in argv is imported, so start-up
 * pays for one area; with no area (root help, unknown command) only names and summaries are added.
 */
export async function buildProgram(argv: string[], io: IO, env: NodeJS.ProcessEnv, hooks: ProgramHooks, opts: { all?: boolean } = {}): Promise<Command> {
  const root = createRoot(io, hooks.quietUsageErrors);
  const first = firstCommandWord(argv);
  const named = first ? findArea(first) : undefined;
  for (const entry of AREAS) {
    if (opts.all || entry === named) {
      addArea(root, entry, await entry.load(), io, env, hooks, opts.all ? undefined : argv);
    } else if (!named || argv.includes('--help') || argv.includes('-h')) {
      // The other areas are listed (root help, suggestions for an unknown word) only when no area is
      // named or help may be the root's (`crmctl --help deals`).
      const stub = root.command(entry.name).description(entry.summary);
      for (const a of entry.aliases ?? []) stub.alias(a);
    }
  }
  return root;
}

export function firstCommandWord(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return argv[i + 1];
    if (VALUE_FLAG_WORDS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return a;
  }
  return undefined;
}
