import type { Readable, Writable } from 'node:stream';

/** Streams plus the facts about them that decide output format, colour and prompting. */
export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  isStdinTTY: boolean;
  isStdoutTTY: boolean;
  isStderrTTY: boolean;
  /** Width for tables; 0 when unknown (piped). */
  columns: number;
}

export function processIO(): IO {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    isStdinTTY: Boolean(process.stdin.isTTY),
    isStdoutTTY: Boolean(process.stdout.isTTY),
    isStderrTTY: Boolean(process.stderr.isTTY),
    columns: process.stdout.columns ?? 0,
  };
}

/** CI systems set CI=true (GitHub, GitLab, CircleCI, Buildkite...); we never prompt there. */
export function isCI(env: NodeJS.ProcessEnv): boolean {
  const v = env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}
