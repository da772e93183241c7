import type { Context } from '../../core/context.js';
import type { ProgramInfo } from '../../core/command.js';
import { CliError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { deprecatedUses, type DeprecatedUse } from './deprecated.js';

/**
 * `crmctl doctor --deprecated [FILE]`: the commands of a shell script (FILE, or stdin) that call v1
 * endpoints out of support, each with the v2 command; exit 1 when there is one (like a failed check).
 */
export async function runDeprecatedScan(ctx: Context, file: string | true, program: ProgramInfo): Promise<void> {
  const fromStdin = file === true || file === '-';
  if (fromStdin && ctx.io.isStdinTTY) throw new UsageError('--deprecated: give a script file, or pipe one on stdin', 'e.g. crmctl doctor --deprecated deploy.sh');
  const [{ readInputText }, { reportWriter }] = await Promise.all([import('../../input/sources.js'), import('../../output/report.js')]);
  const script = await readInputText(ctx.io.stdin, fromStdin ? '-' : `@${file}`, '--deprecated');
  const name = fromStdin ? 'stdin' : file;
  const found = await deprecatedUses(script, await program.commandTree());
  const out = reportWriter<DeprecatedUse>(ctx, { columns: ['line', 'command', 'calls', 'use'], line: (u) => `${name}:${u.line}  ${u.command}\n  ${u.notice}` });
  for (const u of found) await out.row(u);
  const text = found.length
    ? `${found.length} command${found.length === 1 ? ' calls a v1 endpoint' : 's call v1 endpoints'} out of support (docs/interface-deviations.md lists what has no v2 form).`
    : `No command of ${name} calls a v1 endpoint out of support.`;
  await out.end({ text, json: { ok: found.length === 0, script: name, commands: found } });
  if (found.length) throw new CliError(`doctor found ${found.length} command${found.length === 1 ? '' : 's'} calling v1 endpoints out of support`, EXIT.ERROR);
}
