import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import type { ExportResource } from '../../automation/resources.js';
import type { ExportFormat } from '../../output/format.js';

interface IncrementalFlags {
  out?: string;
  param: string[];
  resume: boolean;
  since?: string;
  columns?: string[];
  pageSize?: number;
}

/** `export <kind> --incremental`: the flags it cannot combine with, refused before anything is sent. */
export async function runIncremental(ctx: Context, resource: ExportResource, format: ExportFormat, flags: IncrementalFlags): Promise<void> {
  if (!flags.out) throw new UsageError('--incremental needs --out FILE (the copy it keeps in step, with FILE.state.json beside it)');
  if (format !== 'ndjson') throw new UsageError(`--incremental: keeps an ndjson file (got --format ${format})`);
  const clash = [flags.param.length ? '--param' : '', flags.resume ? '--resume' : '', flags.since !== undefined ? '--since' : '', flags.columns ? '--columns' : ''].filter(Boolean);
  if (clash.length) throw new UsageError(`--incremental cannot be combined with ${clash.join(', ')}: the copy holds every record and its watermark decides what is read`);
  const { runIncrementalExport } = await import('../../automation/incremental-export.js');
  await runIncrementalExport(ctx, resource, flags.out, flags.pageSize);
}
