import type { HttpClient } from '../http/client.js';
import type { CredentialSource } from '../http/types.js';
import type { Context } from '../core/context.js';
import { CancelledError, UsageError } from '../core/errors.js';
import type { GlobalOptions } from '../core/globals.js';
import { endStatusLine, isCI, type IO } from '../core/io.js';
// Imported where used (below), not here: a static import would keep this module out of the chunk it
// shares with the rest of the core (scripts/lib/chunk-groups.mjs), one more file for every command.
import type { Prompter } from '../core/prompter.js';
import { VERSION } from '../core/version.js';
import { safeLines, safeText } from '../output/safe-text.js';

/**
 * Builds the context a command runs with (gh's Factory): the heavy pieces are imported on first use,
 * so `crmctl --help` and `crmctl leads --help` load no HTTP, auth, config or prompt code. `argv` is the
 * command line as typed (what a run records); a context built for a test or a helper without one records none.
 */
export function createContext(io: IO, env: NodeJS.ProcessEnv, globals: GlobalOptions, argv: readonly string[] = []): Context {
  const canPrompt = io.isStdinTTY && io.isStdoutTTY && !isCI(env) && !globals.noInput;
  const colorEnabled = globals.color && io.isStdoutTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  let creds: Promise<CredentialSource> | undefined;
  let resolvedCreds: CredentialSource | undefined;
  let http: Promise<HttpClient> | undefined;
  let prompter: Promise<Prompter> | undefined;
  // Notices quote record text (a title, a name the service sent): control characters are shown as escapes.
  const write = (line: string) => {
    endStatusLine(io.stderr);
    return io.stderr.write(`${safeLines(line)}\n`);
  };

  const ctx: Context = {
    io,
    env,
    argv,
    globals,
    canPrompt,
    colorEnabled,
    async profileName() {
      const { resolveProfileName } = await import('../config/store.js');
      return resolveProfileName(env, globals.profile);
    },
    credentials() {
      creds ??= (async () => {
        const { createCredentialSource } = await import('./service-stack.js');
        resolvedCreds = await createCredentialSource({ env, profile: globals.profile, debug: (l) => ctx.debug(l), warn: (l) => ctx.warn(l) });
        return resolvedCreds;
      })();
      return creds;
    },
    http() {
      http ??= (async () => {
        const [{ HttpClient, createTransport }, credentials] = await Promise.all([import('./service-stack.js'), ctx.credentials()]);
        return new HttpClient({
          credentials,
          transport: await createTransport(env.CRMCTL_HTTP_TRANSPORT),
          trace: globals.debug ? write : undefined,
          maxRetries: numberEnv(env.CRMCTL_MAX_RETRIES, 5),
          baseDelayMs: numberEnv(env.CRMCTL_RETRY_BASE_MS, 300),
          maxWaitMs: numberEnv(env.CRMCTL_MAX_RETRY_WAIT, 60) * 1000,
          notice: write,
          userAgent: `crmctl/${VERSION} node/${process.versions.node}`,
        });
      })();
      return http;
    },
    prompter() {
      prompter ??= import('../core/prompter.js').then((m) => (canPrompt ? m.inquirerPrompter({ stdin: io.stdin, stderr: io.stderr }) : m.nonInteractivePrompter));
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
      if (!io.isStderrTTY || machine || globals.debug || !hasWidth(io.stderr)) return work();
      const { default: ora } = await import('ora');
      const spinner = ora({ text: safeText(text), stream: io.stderr, isEnabled: true, discardStdin: false, color: colorEnabled ? 'cyan' : false }).start();
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

/**
 * A terminal that reports 0 columns (`stty cols 0`; some CI runners and `docker exec -t` give one) has
 * no width. ora divides by it: every redraw then clears Infinity lines, a synchronous loop that wrote
 * 670 MB of escape codes in 7 minutes at 100% CPU and never let the SIGTERM handler run (issue 29.5).
 * No spinner there; a stream that does not say (a test's stream) counts as wide enough, as ora assumes.
 */
function hasWidth(stream: NodeJS.WritableStream): boolean {
  const columns = (stream as { columns?: number }).columns;
  return columns === undefined || columns > 0;
}

function numberEnv(v: string | undefined, fallback: number): number {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? n : fallback;
}
