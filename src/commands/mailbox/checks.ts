import { callOperation, recordsOf } from '../../api/call.js';
import { mailboxOperations } from '../../api/operations/mailbox.js';
import type { Context } from '../../core/context.js';
import { ValidationError } from '../../core/errors.js';
import type { BuiltInput } from '../from-operation.js';
import { missingLead } from '../notes/checks.js';

const threadGet = mailboxOperations.find((o) => o.id === 'mailbox.threads.get')!;

/**
 * Rules of a thread update that need account data: only inbox threads can be archived
 * (one already archived is left as it is), and a linked lead must exist. The deal rule is the
 * service's to check: the interface gives the CLI no way to read a deal.
 */
export async function threadUpdatePreflight(ctx: Context, input: BuiltInput): Promise<void> {
  const body = (input.body ?? {}) as Record<string, unknown>;
  const issues: Array<{ field: string; rule: string }> = [];
  if (body.archived_flag === 1) {
    const { envelope } = await callOperation(await ctx.http(), threadGet, { params: input.params });
    const thread = (recordsOf(threadGet, envelope) ?? {}) as { archived_flag?: number; folders?: string[] };
    const folders = thread.folders ?? [];
    if (thread.archived_flag !== 1 && !folders.includes('inbox')) {
      issues.push({ field: '--archived', rule: `only inbox threads can be archived; thread ${String(input.params.id)} is in ${folders.join(', ') || 'no folder'}` });
    }
  }
  const lead = await missingLead(ctx, body.lead_id);
  if (lead) issues.push(lead);
  if (issues.length) throw new ValidationError(issues);
}
