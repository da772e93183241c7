import { ValidationError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { readInputText } from '../../input/sources.js';
import { extension, type CommandExtension } from '../operation-command.js';

/**
 * Notes are HTML that rarely fits on a command line: `--content-file PATH|-` fills `content` from a
 * file or a pipe. Problems with the file are named after --content-file (not --content), so the user
 * knows which input to fix.
 */
export function contentFile(max?: number): CommandExtension {
  return extension({
    flags: { contentFile: flag.string({ value: 'path', description: 'read the content (HTML) from this file, or - for stdin; instead of --content' }) },
    async adjust(ctx, raw, flags, tableOpts) {
      if (flags.contentFile === undefined) return raw;
      if (tableOpts.content !== undefined) throw new ValidationError([{ field: '--content-file', rule: 'cannot be combined with --content (give one of them)' }]);
      const path = flags.contentFile;
      const text = await readInputText(ctx.io.stdin, path === '-' ? '-' : `@${path}`, '--content-file');
      const source = path === '-' ? 'stdin' : path;
      if (text.trim() === '') throw new ValidationError([{ field: '--content-file', rule: `${source} is empty; a note or comment needs some content` }]);
      if (max !== undefined && text.length > max) {
        throw new ValidationError([{ field: '--content-file', rule: `${source} has ${text.length} characters; the content may have at most ${max}` }]);
      }
      const body = raw.body && typeof raw.body === 'object' ? (raw.body as Record<string, unknown>) : {};
      return { ...raw, body: { ...body, content: text } };
    },
  });
}
