import type { Context } from './context.js';
import type { Deprecation } from './deprecation.js';

export interface ArgSpec {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  /**
   * What shell completion offers for it: fixed words, plus `operationPaths` for every path of the
   * operation tables (`crmctl api`). Named, not computed here, so a command's module does not load
   * every table just to be listed.
   */
  complete?: { words?: string[]; operationPaths?: boolean };
}

export interface OptionSpec {
  /** Commander flags string: '--title <text>', '--exact-match [bool]', '-F, --field <key=value...>'. */
  flags: string;
  description: string;
  /** Allowed values (shown in help, completions and checked before anything is sent). */
  choices?: readonly string[];
  defaultValue?: unknown;
  /** Repeatable option collecting values into an array. */
  repeatable?: boolean;
  hidden?: boolean;
}

/**
 * What a command says of an operation it calls (--help's "Calls:" lines, docs, `crmctl commands --json`).
 * The operation tables' rows (src/api/operation.ts) are OperationRefs; core needs no more of them.
 */
export interface OperationRef {
  readonly id: string;
  method: string;
  path: string;
  cost: number | null;
  scopes: readonly string[];
  beta?: boolean;
  /** The vendor deprecated it and it is out of support (a v1 form of an operation with a v2 form). */
  deprecated?: Deprecation;
}

/**
 * A command is a spec plus a run function (gh's NewCmdX + xRun, wrangler's createCommand).
 * Generated commands (from operation tables) and hand-written ones share this shape, so the
 * command tree, --help, docs/ and completions/ all read one structure.
 */
export interface CommandSpec {
  /** Path under crmctl: ['leads', 'list']. */
  path: string[];
  summary: string;
  description?: string;
  /** Lines starting with `crmctl `; at least one. */
  examples: string[];
  args?: ArgSpec[];
  options?: OptionSpec[];
  /** The operations it calls; --help and docs show their method, path, cost and scopes. */
  operations?: OperationRef[];
  /** Record fields available to --fields. */
  fields?: string[];
  aliases?: string[];
  hidden?: boolean;
  run(ctx: Context, input: CommandInput): Promise<void>;
}

export interface CommandInput {
  args: string[];
  /** Commander's parsed options, keyed by camelCase attribute name. */
  opts: Record<string, unknown>;
  /** The program the command runs in, for the few commands that describe the others. */
  program: ProgramInfo;
}

/**
 * What a command may ask about the whole program (completion scripts, `mcp --areas`). program.ts
 * hands it in with every run, so a command never imports the program that loads it.
 */
export interface ProgramInfo {
  /** Every command, with every area loaded. */
  commandTree(): Promise<TreeNode>;
  /** A top-level command's name from its name or an alias (`orgs` → `organizations`). */
  areaName(word: string): string | undefined;
}

/** The spec behind a commander command, for docs and completions generated from the tree. */
export const SPEC = Symbol('crmctl.spec');

export interface TreeOption {
  flags: string;
  long?: string;
  short?: string;
  description: string;
  choices?: string[];
  takesValue: boolean;
}

/** One command of the built program as docs, completions and tests read it. */
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

export function flatten(node: TreeNode): TreeNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

/** A group of commands under one top-level name (an API area or a tool like `auth`). */
export interface AreaModule {
  commands: CommandSpec[];
  /** Summaries for intermediate groups, e.g. { 'notes comments': 'Comments on notes' }. */
  groups?: Record<string, string>;
}
