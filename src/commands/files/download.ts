import { fileOps } from '../../api/operations/files.js';
import type { CommandSpec } from '../../core/command.js';
import { commandFromOperation } from '../operation-command.js';

const op = fileOps.download;

/**
 * `files download <id> [--out PATH|DIR|-]`: the bytes are streamed to the target, never held in
 * memory. A file target is written to a temporary file beside it and renamed when the last byte
 * arrived, so a failed download leaves nothing half-written; without --out the service's file name
 * is used in the current directory. An existing file is not replaced without --force.
 */
export const downloadCommand: CommandSpec = {
  ...commandFromOperation(op),
  options: [
    { flags: '-o, --out <path>', description: 'file or directory to write to, or - for stdout (default: the file\'s own name here)' },
    { flags: '--force', description: 'replace the target file when it exists' },
  ],
  examples: ['crmctl files download 1 --out ./contract.pdf', 'crmctl files download 1 --out - | sha256sum', 'crmctl files download 1 --out ./downloads/'],
  async run(ctx, { args, opts }) {
    const { runDownload } = await import('./run-download.js');
    await runDownload(ctx, op, args, { out: opts.out as string | undefined, force: Boolean(opts.force) });
  },
};
