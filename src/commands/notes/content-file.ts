import { readFileSync } from 'node:fs';
import type { OptionSpec } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { UsageError, ValidationError } from '../../core/errors.js';
import { readAll } from '../../core/stdin.js';
import { decodeUtf8 } from '../coerce.js';

/** Notes are HTML that rarely fits on a command line: let people pass a file or a pipe instead. */
export const contentFileOption: OptionSpec = {
  flags: '--content-file <path>',
  description: 'read the content (HTML) from this file, or - for stdin; instead of --content',
};

/**
 * Returns the options with `content` filled from --content-file. Problems with the file are named
 * after --content-file (not --content), so the user knows which input to fix.
 */
export async function withContentFromFile(ctx: Context, opts: Record<string, unknown>, max?: number): Promise<Record<string, unknown>> {
  if (opts.contentFile === undefined) return opts;
  if (opts.content !== undefined) throw new ValidationError([{ field: '--content-file', rule: 'cannot be combined with --content (give one of them)' }]);
  const path = String(opts.contentFile);
  let text: string;
  if (path === '-') text = await readAll(ctx.io.stdin);
  else {
    try {
      text = decodeUtf8(readFileSync(path), '--content-file', path);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new UsageError(`--content-file: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  const source = path === '-' ? 'stdin' : path;
  if (text.trim() === '') throw new ValidationError([{ field: '--content-file', rule: `${source} is empty; a note or comment needs some content` }]);
  if (max !== undefined && text.length > max) {
    throw new ValidationError([{ field: '--content-file', rule: `${source} has ${text.length} characters; the content may have at most ${max}` }]);
  }
  const { contentFile: _ignored, ...rest } = opts;
  return { ...rest, content: text };
}
