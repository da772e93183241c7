import { CancelledError, UsageError } from './errors.js';

export interface Choice<T = string> {
  name: string;
  value: T;
  description?: string;
}

/**
 * What commands may ask a person. Every question names the flag that answers it,
 * so that off a TTY (or with --no-input, or in CI) we can say which flag is missing.
 */
export interface Prompter {
  input(q: { message: string; flag: string; default?: string; validate?: (v: string) => true | string }): Promise<string>;
  password(q: { message: string; flag: string }): Promise<string>;
  select<T>(q: { message: string; flag: string; choices: Choice<T>[]; default?: T }): Promise<T>;
  confirm(q: { message: string; flag: string; default?: boolean }): Promise<boolean>;
}

/** Used when prompting is impossible: every question becomes a usage error naming the flag. */
export const nonInteractivePrompter: Prompter = {
  async input(q) {
    throw new UsageError(`missing ${q.flag}: ${q.message.replace(/[:?]\s*$/, '')} (no prompt: not a terminal, CI or --no-input)`);
  },
  async password(q) {
    throw new UsageError(`missing ${q.flag}: ${q.message.replace(/[:?]\s*$/, '')} (no prompt: not a terminal, CI or --no-input)`);
  },
  async select(q) {
    throw new UsageError(`missing ${q.flag}: ${q.message.replace(/[:?]\s*$/, '')} (no prompt: not a terminal, CI or --no-input)`);
  },
  async confirm(q) {
    throw new UsageError(`${q.message.replace(/[:?]\s*$/, '')}: pass ${q.flag} to confirm (no prompt: not a terminal, CI or --no-input)`);
  },
};

/** Loaded only when a prompt is actually shown, so start-up never pays for @inquirer/prompts. */
export async function inquirerPrompter(io: { stdin: NodeJS.ReadableStream; stderr: NodeJS.WritableStream }): Promise<Prompter> {
  const inq = await import('@inquirer/prompts');
  // Prompts draw on stderr so stdout keeps only results.
  const ctx = { input: io.stdin, output: io.stderr } as never;
  const wrap = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } catch (err) {
      if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) throw new CancelledError();
      throw err;
    }
  };
  return {
    input: (q) =>
      wrap(inq.input({ message: q.message, default: q.default, validate: q.validate ? (v: string) => q.validate!(v) : undefined }, ctx)),
    password: (q) => wrap(inq.password({ message: q.message, mask: '*' }, ctx)),
    select: <T>(q: { message: string; choices: Choice<T>[]; default?: T }) =>
      wrap(inq.select<T>({ message: q.message, choices: q.choices, default: q.default, pageSize: 12 }, ctx)),
    confirm: (q) => wrap(inq.confirm({ message: q.message, default: q.default ?? false }, ctx)),
  };
}
