import type { CommandSpec, ProgramInfo } from './command.js';
import type { Context } from './context.js';
import { flagOptions, parseFlags, type FlagSet, type FlagValues } from './flags.js';

/** What a hand-written command's run receives: its flags parsed and typed once, by the builder. */
export interface TypedInput<F extends FlagSet> {
  args: string[];
  flags: FlagValues<F>;
  /**
   * Commander's options as they came, for the flags a command takes over from an operation table
   * (collectFlags reads them by the table's names); a hand-written flag is read from `flags`.
   */
  tableOpts: Record<string, unknown>;
  program: ProgramInfo;
}

/** A command as written: the spec's fields, its flags described once, and a typed run. */
export type CommandDefinition<F extends FlagSet> = Omit<CommandSpec, 'options' | 'run'> & {
  flags?: F;
  /** Flags the command takes from an operation table (declared as it generates them), before `flags`. */
  tableOptions?: CommandSpec['options'];
  run(ctx: Context, input: TypedInput<F>): Promise<void>;
};

/**
 * A hand-written command (gh's NewCmdX + xRun, wrangler's createCommand): `flags` gives the
 * OptionSpecs help, docs, completions and the command tree read, and the values run receives, parsed
 * (integers, choices, required, repeated) before run starts, so a bad value is exit 2 with nothing sent.
 */
export function defineCommand<F extends FlagSet = Record<never, never>>(def: CommandDefinition<F>): CommandSpec {
  const { flags, tableOptions, run, ...spec } = def;
  const declared = (flags ?? {}) as F;
  return {
    ...spec,
    options: [...(tableOptions ?? []), ...flagOptions(declared)],
    run: (ctx, input) => run(ctx, { args: input.args, flags: parseFlags(declared, input.opts), tableOpts: input.opts, program: input.program }),
  };
}
