import { CommanderError } from 'commander';
import { ChangesFound, CliError, isResumable, UsageError } from './core/errors.js';
import { EXIT, type ExitCode } from './core/exit-codes.js';
import { endStatusLine, processIO, type IO } from './core/io.js';
import type { Context } from './core/context.js';
import { buildProgram } from './program.js';
import { findArea } from './commands/areas.js';
import { sourceFrames } from './core/crash-report.js';
import { redactText } from './core/redact.js';
import { safeLines } from './output/safe-text.js';
import { commanderErrorJson, errorJson, wantsJsonErrors, type ErrorJson } from './core/error-json.js';
import { shellLine } from './core/shell-quote.js';
import { VERSION } from './core/version.js';

/**
 * Runs one command line and returns its exit code. The only place errors become exit codes and
 * the only place that prints them; never calls process.exit, so tests run it in-process.
 */
export async function main(argv: string[], io: IO = processIO(), env: NodeJS.ProcessEnv = process.env): Promise<ExitCode> {
  let ctx: Context | undefined;
  // What a run records as its command line (src/runs): the words as given, before the rewrites below.
  const typed: readonly string[] = argv;
  if (argv.includes('--no-color')) {
    argv = argv.filter((a) => a !== '--no-color');
    env = { ...env, CRMCTL_NO_COLOR: '1' };
  }
  try {
    if (argv[0] === 'help' && argv[1] && !argv[1].startsWith('-')) {
      const { helpTopic, HELP_TOPICS } = await import('./docs/help-topics.js');
      const text = helpTopic(argv[1]);
      if (text) {
        io.stdout.write(text);
        return EXIT.OK;
      }
      // `help deals products add` is `deals products add --help`, at any depth (commander's own help
      // command looks at one word only, and the area it names would not be loaded).
      if (!findArea(argv[1])) {
        throw new UsageError(`unknown command or help topic '${argv[1]}'`, `Commands: crmctl --help. Topics: ${Object.keys(HELP_TOPICS).map((t) => `crmctl help ${t}`).join(', ')}.`);
      }
      argv = [...argv.slice(1), '--help'];
    }
    // Lets the test suite check the crash report of the shipped bundle; not a user setting.
    if (env.CRMCTL_INTERNAL_CRASH === '1') throw new TypeError('internal crash requested by CRMCTL_INTERNAL_CRASH');
    const program = await buildProgram(argv, io, env, { onContext: (c) => (ctx = c), quietUsageErrors: wantsJsonErrors(argv), argv: typed });
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.OK;
  } catch (err) {
    return report(err, io, ctx, argv);
  } finally {
    await ctx?.close().catch(() => undefined);
  }
}

function report(err: unknown, io: IO, ctx: Context | undefined, argv: string[]): ExitCode {
  // A plan with changes is an outcome, not a failure: its report is on stdout already.
  if (err instanceof ChangesFound) return err.exitCode;
  const secrets = collectSecrets(ctx);
  endStatusLine(io.stderr);
  if (wantsJsonErrors(argv)) return reportJson(err, io, secrets, argv);
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.OK;
    if (err.code === 'commander.executeSubCommandAsync') return EXIT.OK;
    // Commander already printed its message (unknown option, missing argument...).
    return EXIT.USAGE;
  }
  // Messages quote values (a record's title, a name the service sent, a cell of a file): control
  // characters are shown as escapes, so an error cannot rewrite the screen it is printed on.
  if (err instanceof CliError) {
    io.stderr.write(`error: ${safeLines(redactText(err.message, secrets))}\n`);
    if (err.hint) io.stderr.write(`hint: ${safeLines(redactText(err.hint, secrets))}\n`);
    if (isResumable(err)) io.stderr.write(`hint: ${redactText(resumeLine(argv), secrets)}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  io.stderr.write(`error: unexpected failure: ${safeLines(redactText(message, secrets))}\n`);
  if (err instanceof Error && err.stack) {
    // The bundle is minified: name the source files and lines through its source maps.
    const frames = sourceFrames(err.stack, ctx?.globals.debug ? 30 : 5);
    if (frames.length) io.stderr.write(`at: ${frames.join('\n    ')}\n`);
  }
  if (isResumable(err)) io.stderr.write(`hint: ${redactText(resumeLine(argv), secrets)}\n`);
  io.stderr.write(`hint: report it with the lines above and crmctl ${VERSION} (\`--debug\` adds the HTTP trace; secrets are redacted).\n`);
  return EXIT.ERROR;
}

/**
 * With json or ndjson output a failure is one JSON line on stderr (docs/agents.md), so a program reads
 * it as it reads the records; commander's usage errors too (program.ts kept them from being printed).
 */
function reportJson(err: unknown, io: IO, secrets: string[], argv: string[]): ExitCode {
  let out: ErrorJson;
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.OK;
    if (err.code === 'commander.executeSubCommandAsync') return EXIT.OK;
    out = commanderErrorJson(err.message, secrets);
  } else {
    out = errorJson(err, secrets, resumeLine(argv));
    if (out.code === 'internal') {
      // The crash report of the text form, folded into the hint: where in the sources, and which version.
      const frames = err instanceof Error && err.stack ? sourceFrames(err.stack, 5) : [];
      const report = `report it with this error and crmctl ${VERSION}${frames.length ? ` (at ${frames.join(', ')})` : ''}; --debug adds the HTTP trace, secrets redacted.`;
      out = { ...out, hint: [out.hint, report].filter(Boolean).join('\n') };
    }
  }
  io.stderr.write(`${JSON.stringify({ error: out })}\n`);
  return out.exit_code;
}

/** The command line that continues a run whose checkpoint was kept: the same words, with --resume. */
function resumeLine(argv: string[]): string {
  const words = argv.includes('--resume') ? argv : [...argv, '--resume'];
  return `its progress is saved; continue with: crmctl ${shellLine(words)}`;
}

function collectSecrets(ctx: Context | undefined): string[] {
  return ctx?.knownSecrets() ?? [];
}
