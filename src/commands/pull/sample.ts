import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';

/**
 * A sample of records as CSV files under <dir>/sample/. Placeholder: the sample is written by
 * another change (issue 21, point 5), which replaces this file with the same signature.
 */
export async function writeSample(_ctx: Context, _opts: { dir: string; count: number }): Promise<{ files: string[]; records: number }> {
  throw new UsageError('--sample is not available');
}
