import { setTimeout as sleep } from 'node:timers/promises';
import { leadOps } from '../../api/operations/leads.js';
import { defineCommand } from '../../core/define-command.js';
import { CliError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { prepare } from '../../entry/prepare.js';
import { collectFlags, commandFromOperation } from '../operation-command.js';
import { fetchOperation } from '../run-operation.js';

const { convert: convertOp, conversionStatus: statusOp } = leadOps;
const FINAL = new Set(['completed', 'failed', 'rejected']);

/** `leads convert`: starts the job and prints it as the service answered; with --wait polls until it ends and prints the deal id. */
export const convertCommand = defineCommand({
  ...commandFromOperation(convertOp),
  tableOptions: commandFromOperation(convertOp).options,
  flags: {
    wait: flag.bool({ description: 'poll until the conversion is completed, failed or rejected, then print the deal id' }),
    timeout: flag.positive({ value: 'seconds', default: 120, description: 'give up waiting after this long' }),
  },
  operations: [convertOp, statusOp],
  async run(ctx, { args, flags, tableOpts }) {
    const { timeout } = flags;
    const input = await prepare(ctx, convertOp, await collectFlags(ctx, convertOp, args, tableOpts));
    const leadId = String(input.params.id);
    const job = (await fetchOperation(ctx, convertOp, { params: { id: leadId }, body: input.body as { stage_id?: number; pipeline_id?: number } })) as { conversion_id?: string } | null;
    const conversionId = job?.conversion_id;
    if (!conversionId) throw new CliError('The service did not return a conversion id.');
    const { renderRecord } = await import('../../output/render.js');
    if (!flags.wait) {
      // The job as the service answered it (its status right after start is not part of the answer).
      ctx.info(`Conversion started; follow it with: crmctl leads conversion-status ${leadId} ${conversionId}`);
      await renderRecord(ctx, job as Record<string, unknown>);
      return;
    }
    ctx.info(`Converting lead ${String(leadId)} (job ${conversionId})…`);
    const deadline = Date.now() + timeout * 1000;
    let delay = 250;
    for (;;) {
      const status = (await fetchOperation(ctx, statusOp, { params: { id: leadId, conversion_id: conversionId } })) as { status?: string; deal_id?: number };
      if (status?.status && FINAL.has(status.status)) {
        if (status.status !== 'completed') throw new CliError(`Conversion ${conversionId} ended ${status.status}.`, 1, 'See the lead in the app; the service gave no deal.');
        await renderRecord(ctx, { lead_id: leadId, conversion_id: conversionId, status: status.status, deal_id: status.deal_id }, { columns: ['deal_id', 'status', 'conversion_id'] });
        return;
      }
      if (Date.now() > deadline) throw new CliError(`Conversion ${conversionId} still ${status?.status ?? 'unknown'} after ${timeout}s.`, 1, `Check later: crmctl leads conversion-status ${String(leadId)} ${conversionId}`);
      await sleep(delay);
      delay = Math.min(2000, delay * 1.5);
    }
  },
});
