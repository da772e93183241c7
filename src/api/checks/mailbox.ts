import { mailboxOps } from '../operations/mailbox.js';
import { ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../entry-types.js';
import { missingLead } from './notes.js';
import type { CheckReader } from '../entry-types.js';

/**
 * Rules of a thread update that need account data: only inbox threads can be archived
 * (one already archived is left as it is), and a linked lead must exist. The deal rule is the
 * service's to check.
 */
export async function threadUpdatePreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const body = (input.body ?? {}) as Record<string, unknown>;
  const issues: Array<{ field: string; rule: string }> = [];
  if (body.archived_flag === 1) {
    const thread = ((await ctx.read(mailboxOps.threadsGet, { params: { id: input.params.id as number } })) ?? {}) as { archived_flag?: number; folders?: string[] };
    const folders = thread.folders ?? [];
    if (thread.archived_flag !== 1 && !folders.includes('inbox')) {
      issues.push({ field: '--archived', rule: `only inbox threads can be archived; thread ${String(input.params.id)} is in ${folders.join(', ') || 'no folder'}` });
    }
  }
  const lead = await missingLead(ctx, body.lead_id);
  if (lead) issues.push(lead);
  if (issues.length) throw new ValidationError(issues);
}
