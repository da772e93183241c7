import type { HttpClient } from '../http/client.js';
import type { CredentialSource } from '../http/types.js';
import { isCI, type IO } from './io.js';
import type { GlobalOptions } from './globals.js';
import { nonInteractivePrompter, type Prompter } from './prompter.js';
import { CancelledError, UsageError } from './errors.js';

/**
 * Everything a command may use, handed in by `main` (gh's Factory). Heavy pieces (HTTP, auth,
 * config, prompts) are lazy: `crmctl --help` and `crmctl leads --help` load none of them.
 */
export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  /** A person can answer prompts: stdin and stdout are terminals, not CI, no --no-input. */
  canPrompt: boolean;
  colorEnabled: boolean;
  /** Name of the profile this call uses (flag, env, stored default, or "default"). */
  profileName(): Promise<string>;
  credentials(): Promise<CredentialSource>;
  http(): Promise<HttpClient>;
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

export function createContext(io: IO, env: NodeJS.ProcessEnv, globals: GlobalOptions): Context {
  const canPrompt = io.isStdinTTY && io.isStdoutTTY && !isCI(env) && !globals.noInput;
  const colorEnabled = globals.color && io.isStdoutTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  let creds: Promise<CredentialSource> | undefined;
  let resolvedCreds: CredentialSource | undefined;
  let http: Promise<HttpClient> | undefined;
  let prompter: Promise<Prompter> | undefined;
  const write = (line: string) => io.stderr.write(`${line}\n`);

  const ctx: Context = {
    io,
    env,
    globals,
    canPrompt,
    colorEnabled,
    async profileName() {
      const { resolveProfileName } = await import('../config/store.js');
      return resolveProfileName(env, globals.profile);
    },
    credentials() {
      creds ??= (async () => {
        const { createCredentialSource } = await import('../auth/credentials.js');
        resolvedCreds = await createCredentialSource({ env, profile: globals.profile, debug: (l) => ctx.debug(l) });
        return resolvedCreds;
      })();
      return creds;
    },
    http() {
      http ??= (async () => {
        const [{ HttpClient }, { createTransport }, credentials] = await Promise.all([import('../http/client.js'), import('../http/create-transport.js'), ctx.credentials()]);
        return new HttpClient({
          credentials,
          transport: await createTransport(env.CRMCTL_HTTP_TRANSPORT),
          trace: globals.debug ? write : undefined,
          maxRetries: numberEnv(env.CRMCTL_MAX_RETRIES, 5),
          baseDelayMs: numberEnv(env.CRMCTL_RETRY_BASE_MS, 300),
          userAgent: `crmctl/${env.npm_package_version ?? '0'} node/${process.versions.node}`,
        });
      })();
      return http;
    },
    prompter() {
      prompter ??= canPrompt
        ? import('./prompter.js').then((m) => m.inquirerPrompter({ stdin: io.stdin, stderr: io.stderr }))
        : Promise.resolve(nonInteractivePrompter);
      return prompter;
    },
    debug(line) {
      if (globals.debug) write(line);
    },
    info(line) {
      if (io.isStderrTTY) write(line);
    },
    warn(line) {
      write(`warning: ${line}`);
    },
    async spin(text, work) {
      const machine = globals.output === 'json' || globals.output === 'ndjson';
      if (!io.isStderrTTY || machine || globals.debug) return work();
      const { default: ora } = await import('ora');
      const spinner = ora({ text, stream: io.stderr, isEnabled: true, discardStdin: false, color: colorEnabled ? 'cyan' : false }).start();
      try {
        return await work();
      } finally {
        spinner.stop();
      }
    },
    async confirm(message) {
      if (globals.yes) return;
      if (!canPrompt) throw new UsageError(`${message} Pass --yes to confirm (no prompt: not a terminal, CI or --no-input).`);
      const p = await ctx.prompter();
      if (!(await p.confirm({ message, flag: '--yes', default: false }))) throw new CancelledError();
    },
    knownSecrets() {
      const fromEnv = [env.CRMCTL_ACCESS_TOKEN, env.CRMCTL_API_TOKEN, env.CRMCTL_CLIENT_SECRET, env.CRMCTL_REFRESH_TOKEN].filter((s): s is string => Boolean(s));
      return [...fromEnv, ...(resolvedCreds?.secrets() ?? [])];
    },
    async close() {
      if (http) await (await http).close();
    },
  };
  return ctx;
}

function numberEnv(v: string | undefined, fallback: number): number {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? n : fallback;
}
