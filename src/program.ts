import { Command, Option } from 'commander';
import type { AreaModule, CommandSpec } from './core/command.js';
import { createContext, type Context } from './core/context.js';
import { parseFieldList, parseOutputFormat, OUTPUT_FORMATS, type GlobalOptions } from './core/globals.js';
import type { IO } from './core/io.js';
import { AREAS, findArea, type AreaEntry } from './commands/areas.js';
import { operationHelp } from './commands/help-format.js';

export const VERSION = '0.1.0';

export interface ProgramHooks {
  /** Receives the context of the command that ran, so main can close it. */
  onContext(ctx: Context): void;
}

/** Root command with the global flags; program options are accepted before and after subcommands. */
export function createRoot(io: IO): Command {
  const root = new Command('crmctl')
    .description('Administer a sales-CRM account: leads, roles, webhooks, fields, goals and more.\nTry it with no account: `crmctl sandbox start`.')
    .version(VERSION, '-V, --version')
    .option('--profile <name>', 'profile to use for this call only (env CRMCTL_PROFILE)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS))
    .option('--json', 'shorthand for --output json')
    .option('--fields <list>', 'comma-separated fields to show (unknown ones are listed)')
    .option('--debug', 'trace HTTP on stderr (secrets redacted)')
    .option('-y, --yes', 'confirm destructive actions without a prompt')
    .option('--no-input', 'never prompt; fail naming the missing flag')
    .showSuggestionAfterError(true)
    // Every command's --help also lists --json, --fields, --profile... (and so do the generated docs).
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .exitOverride();
  root.addHelpText('after', '\nAlso: --no-color (or NO_COLOR=1) turns colours off everywhere.\n\nExamples:\n  $ crmctl sandbox start --seed demo\n  $ crmctl auth login --profile sandbox\n  $ crmctl leads list --json\n\nMore: crmctl help environment | output | exit-codes');
  return root;
}

export function globalsFrom(cmd: Command, env: NodeJS.ProcessEnv): GlobalOptions {
  const o = cmd.optsWithGlobals() as Record<string, unknown>;
  const output = o.json ? 'json' : o.output ? parseOutputFormat(String(o.output)) : undefined;
  return {
    profile: (o.profile as string | undefined) ?? (env.CRMCTL_PROFILE || undefined),
    output,
    fields: o.fields ? parseFieldList(String(o.fields)) : undefined,
    // --no-color is taken out of argv by main (so that a resource's own --color flag stays free).
    color: env.CRMCTL_NO_COLOR !== '1',
    debug: Boolean(o.debug) || env.CRMCTL_DEBUG === '1',
    yes: Boolean(o.yes),
    noInput: o.input === false,
  };
}

/** Adds one area's commands under the root, creating intermediate groups as needed. */
export function addArea(root: Command, entry: AreaEntry, mod: AreaModule, io: IO, env: NodeJS.ProcessEnv, hooks: ProgramHooks): Command {
  const top = root.command(entry.name).description(entry.summary);
  for (const a of entry.aliases ?? []) top.alias(a);
  top.configureOutput(root.configureOutput());
  top.exitOverride();
  const groups = new Map<string, Command>([[entry.name, top]]);
  for (const spec of effectiveCommands(mod)) {
    let parent = top;
    for (let i = 1; i < spec.path.length - 1; i++) {
      const key = spec.path.slice(0, i + 1).join(' ');
      let g = groups.get(key);
      if (!g) {
        g = parent.command(spec.path[i]!).description(mod.groups?.[key] ?? `${spec.path[i]} commands`);
        g.configureOutput(root.configureOutput());
        g.exitOverride();
        groups.set(key, g);
      }
      parent = g;
    }
    if (spec.path.length === 1) {
      // The area itself is runnable (e.g. `crmctl doctor`).
      wire(top, spec, io, env, hooks);
    } else {
      const cmd = parent.command(spec.path[spec.path.length - 1]!);
      wire(cmd, spec, io, env, hooks);
    }
  }
  return top;
}

/** The commands an area really registers: a hand-written command replaces a generated one with the same path. */
export function effectiveCommands(mod: AreaModule): CommandSpec[] {
  const byPath = new Map<string, CommandSpec>();
  for (const spec of mod.commands) {
    const key = spec.path.join(' ');
    const prev = byPath.get(key);
    if (!prev || spec.generated !== true) byPath.set(key, spec);
  }
  return [...byPath.values()];
}

/** The spec behind a commander command, for docs and completions generated from the tree. */
export const SPEC = Symbol('crmctl.spec');

function wire(cmd: Command, spec: CommandSpec, io: IO, env: NodeJS.ProcessEnv, hooks: ProgramHooks): void {
  (cmd as Command & { [SPEC]?: CommandSpec })[SPEC] = spec;
  cmd.description(spec.summary + (spec.description ? `\n\n${spec.description}` : ''));
  cmd.summary(spec.summary);
  for (const a of spec.aliases ?? []) cmd.alias(a);
  if (spec.hidden) (cmd as unknown as { _hidden: boolean })._hidden = true;
  for (const a of spec.args ?? []) {
    const name = a.variadic ? `${a.name}...` : a.name;
    cmd.argument(a.required === false ? `[${name}]` : `<${name}>`, a.description);
  }
  for (const o of spec.options ?? []) {
    const opt = new Option(o.flags, o.description);
    if (o.choices) opt.choices(o.choices);
    if (o.defaultValue !== undefined) opt.default(o.defaultValue);
    if (o.repeatable) opt.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
    if (o.hidden) opt.hideHelp();
    cmd.addOption(opt);
  }
  cmd.configureOutput(cmd.parent?.configureOutput() ?? {});
  cmd.exitOverride();
  const after = [
    spec.examples.length ? `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}` : '',
    spec.operations?.length ? `\n${operationHelp(spec.operations)}` : '',
    spec.fields?.length ? `\nJSON fields: ${spec.fields.join(', ')}` : '',
  ].join('');
  if (after) cmd.addHelpText('after', after);
  cmd.action(async (...actionArgs: unknown[]) => {
    const self = actionArgs[actionArgs.length - 1] as Command;
    const args = actionArgs.slice(0, -2).map((a) => a as string | string[]).flat() as string[];
    const ctx = createContext(io, env, globalsFrom(self, env));
    hooks.onContext(ctx);
    await spec.run(ctx, { args, opts: self.opts() });
  });
}

/**
 * Builds the tree for one command line. Only the area named in argv is imported, so start-up
 * pays for one area; with no area (root help, unknown command) only names and summaries are added.
 */
export async function buildProgram(argv: string[], io: IO, env: NodeJS.ProcessEnv, hooks: ProgramHooks, opts: { all?: boolean } = {}): Promise<Command> {
  const root = createRoot(io);
  const first = firstCommandWord(argv);
  const named = first ? findArea(first) : undefined;
  for (const entry of AREAS) {
    if (opts.all || entry === named) {
      addArea(root, entry, await entry.load(), io, env, hooks);
    } else {
      const stub = root.command(entry.name).description(entry.summary);
      for (const a of entry.aliases ?? []) stub.alias(a);
    }
  }
  return root;
}

const VALUE_FLAGS = new Set(['--profile', '-o', '--output', '--fields']);

export function firstCommandWord(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return argv[i + 1];
    if (VALUE_FLAGS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return a;
  }
  return undefined;
}
