import { PassThrough, Readable } from 'node:stream';
import { findArea } from '../../src/commands/areas.js';
import { createContext } from '../../src/runtime/create-context.js';
import { programInfo } from '../../src/program.js';
import type { Choice, Prompter } from '../../src/core/prompter.js';
import { cleanEnv } from '../helpers/cli.js';

/** One question as the person saw it. */
export interface Asked {
  kind: 'input' | 'password' | 'select' | 'confirm';
  message: string;
  flag: string;
  choices?: Array<Choice<unknown>>;
  validate?: (v: string) => true | string;
}

/** An answer: a fixed value (select: the choice's name, or a RegExp on it) or a function of the question. */
export type Answer = string | boolean | RegExp | ((q: Asked) => unknown);

/** A prompter that answers from a script and records every question (the inquirer one needs a real terminal). */
export function scriptedPrompter(script: Answer[]): { prompter: Prompter; asked: Asked[] } {
  const asked: Asked[] = [];
  const next = (q: Asked): unknown => {
    asked.push(q);
    const a = script.shift();
    if (a === undefined) throw new Error(`unexpected question: ${q.kind} "${q.message}"`);
    if (typeof a === 'function') return a(q);
    if (q.kind === 'select') {
      const c = q.choices!.find((x) => (a instanceof RegExp ? a.test(x.name) : x.name === a));
      if (!c) throw new Error(`no choice ${String(a)} in "${q.message}": ${q.choices!.map((x) => x.name).join(' | ')}`);
      return c.value;
    }
    if (q.kind === 'input' && typeof a === 'string' && q.validate) {
      const ok = q.validate(a);
      if (ok !== true) throw new Error(`the prompt refused "${a}": ${ok}`);
    }
    return a;
  };
  const prompter: Prompter = {
    input: async (q) => next({ kind: 'input', ...q }) as string,
    password: async (q) => next({ kind: 'password', ...q }) as string,
    select: async <T>(q: { message: string; flag: string; choices: Choice<T>[] }) => next({ kind: 'select', ...q, choices: q.choices as Choice<unknown>[] }) as T,
    confirm: async (q) => next({ kind: 'confirm', ...q }) as boolean,
  };
  return { prompter, asked };
}

/**
 * Runs one command as on a terminal, with the scripted prompter in place of inquirer. Returns
 * stdout, stderr, the questions asked and the error thrown (if any).
 */
export async function runWithPrompts(path: string[], args: string[], opts: Record<string, unknown>, env: Record<string, string>, script: Answer[], globals: { output?: 'json' } = { output: 'json' }) {
  const entry = findArea(path[0]!)!;
  const spec = (await entry.load()).commands.find((c) => c.path.join(' ') === path.join(' '));
  if (!spec) throw new Error(`no command ${path.join(' ')}`);
  let out = '';
  let err = '';
  const stdout = new PassThrough().on('data', (d) => (out += d));
  const stderr = new PassThrough().on('data', (d) => (err += d));
  const io = { stdin: Readable.from([]), stdout, stderr, isStdinTTY: true, isStdoutTTY: true, isStderrTTY: true, columns: 120 };
  const ctx = createContext(io, cleanEnv(env), { profile: undefined, output: globals.output, fields: undefined, color: false, debug: false, yes: false, noInput: false }, [...path, ...args]);
  const { prompter, asked } = scriptedPrompter(script);
  ctx.prompter = async () => prompter;
  let error: (Error & { exitCode?: number }) | undefined;
  try {
    await spec.run(ctx, { args, opts, program: programInfo });
  } catch (e) {
    error = e as Error & { exitCode?: number };
  } finally {
    await ctx.close();
  }
  return { stdout: out, stderr: err, asked, error, left: script.length };
}
