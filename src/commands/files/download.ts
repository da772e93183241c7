import { fileOps } from '../../api/operations/files.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import { commandFromOperation } from '../operation-command.js';

const op = fileOps.download;

/**
 * `files download <id> [--out PATH|DIR|-]`: the bytes are streamed to the target, never held in
 * memory. A file target is written to a temporary file beside it and renamed when the last byte
 * arrived, so a failed download leaves nothing half-written; without --out the service's file name
 * is used in the current directory. An existing file is not replaced without --force.
 */
export const downloadCommand = defineCommand({
  ...commandFromOperation(op),
  flags: {
    out: flag.string({ short: 'o', value: 'path', description: 'file or directory to write to, or - for stdout (default: the file\'s own name here)' }),
    force: flag.bool({ description: 'replace the target file when it exists' }),
  },
  examples: ['crmctl files download 1 --out ./contract.pdf', 'crmctl files download 1 --out - | sha256sum', 'crmctl files download 1 --out ./downloads/'],
  async run(ctx, { args, flags }) {
    const { runDownload } = await import('./run-download.js');
    await runDownload(ctx, op, args, { out: flags.out, force: flags.force });
  },
});
