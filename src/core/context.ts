import type { CredentialSource } from './credentials.js';
import type { HttpPort } from './http-port.js';
import type { IO } from './io.js';
import type { GlobalOptions } from './globals.js';
import type { Prompter } from './prompter.js';

/**
 * Everything a command may use, handed in by `main` (gh's Factory). Heavy pieces (HTTP, auth,
 * config, prompts) are lazy: `crmctl --help` and `crmctl leads --help` load none of them.
 */
export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  /**
   * The words after `crmctl` as typed (what main was given): a run records them as its command line,
   * secrets redacted (src/runs/command-line.ts). Not for parsing: commands get their flags parsed.
   */
  argv: readonly string[];
  globals: GlobalOptions;
  /** A person can answer prompts: stdin and stdout are terminals, not CI, no --no-input. */
  canPrompt: boolean;
  colorEnabled: boolean;
  /** Name of the profile this call uses (flag, env, stored default, or "default"). */
  profileName(): Promise<string>;
  credentials(): Promise<CredentialSource>;
  http(): Promise<HttpPort>;
  prompter(): Promise<Prompter>;
  /** Writes a debug line to stderr when --debug is on. */
  debug(line: string): void;
  /** Human status line on stderr (only on a TTY; scripts keep a clean stream). */
  info(line: string): void;
  /** Warning on stderr, always. */
  warn(line: string): void;
  /**
   * Runs `work` with a spinner (ora) on stderr while it waits, only when stderr is a terminal and
   * the output is not machine-readable; never writes to stdout.
   */
  spin<T>(text: string, work: () => Promise<T>): Promise<T>;
  /** Asks for confirmation of a destructive action, or requires --yes. */
  confirm(message: string): Promise<void>;
  /** Secrets known so far (tokens, client secret) so that error messages can be scrubbed; never loads anything. */
  knownSecrets(): string[];
  /** Closes what was opened (HTTP agent). */
  close(): Promise<void>;
}

