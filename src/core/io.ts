import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';

/** Streams plus the facts about them that decide output format, colour and prompting. */
export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  isStdinTTY: boolean;
  isStdoutTTY: boolean;
  isStderrTTY: boolean;
  /** Width for tables: the terminal's, else $COLUMNS (a pipe into a pager, tests); 0 when unknown. */
  columns: number;
}

export function processIO(): IO {
  return {
    // Node creates process.stdin (a stream, and a reader of the terminal) on first access: most
    // commands never read it, so neither looking at it nor asking whether it is a terminal creates it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    isStdinTTY: isatty(0),
    isStdoutTTY: Boolean(process.stdout.isTTY),
    isStderrTTY: Boolean(process.stderr.isTTY),
    columns: process.stdout.columns || positiveInt(process.env.COLUMNS),
  };
}

/** CI systems set CI=true (GitHub, GitLab, CircleCI, Buildkite...); we never prompt there. */
export function isCI(env: NodeJS.ProcessEnv): boolean {
  const v = env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

function positiveInt(v: string | undefined): number {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : 0;
}

/** Streams whose last write was a self-rewriting status line without its newline (a progress line). */
const openLines = new WeakSet<object>();

/** Marks (or clears) an unfinished status line on a stream. */
export function statusLineOpen(stream: object, open: boolean): void {
  if (open) openLines.add(stream);
  else openLines.delete(stream);
}

/**
 * Ends an unfinished status line before anything else is written to the stream, so a notice or an
 * error starts on its own line instead of after `export deals: 4 (2/s)`.
 */
export function endStatusLine(stream: NodeJS.WritableStream): void {
  if (openLines.delete(stream)) stream.write('\n');
}
