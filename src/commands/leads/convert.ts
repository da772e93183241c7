import { callOperation, recordsOf } from '../../api/call.js';
import { leadOperations } from '../../api/operations/leads.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandSpec } from '../../core/command.js';
import { CliError, ValidationError } from '../../core/errors.js';
import { buildInput, commandFromOperation } from '../from-operation.js';

const convertOp = leadOperations.find((o) => o.id === 'leads.convert')!;
const statusOp = leadOperations.find((o) => o.id === 'leads.conversionStatus')!;
const FINAL = new Set(['completed', 'failed', 'rejected']);

/** `leads convert`: starts the job; with --wait polls until it ends and prints the deal id. */
export const convertCommand: CommandSpec = {
  ...commandFromOperation(convertOp),
  generated: false,
  options: [
    ...(commandFromOperation(convertOp).options ?? []),
    { flags: '--wait', description: 'poll until the conversion is completed, failed or rejected, then print the deal id' },
    { flags: '--timeout <seconds>', description: 'give up waiting after this long', defaultValue: '120' },
  ],
  operations: [convertOp, statusOp],
  async run(ctx, { args, opts }) {
    const timeout = Number(opts.timeout);
    if (!Number.isFinite(timeout) || timeout <= 0) throw new ValidationError([{ field: '--timeout', rule: 'must be a positive number of seconds' }]);
    const input = await buildInput(ctx, convertOp, args, opts);
    const http = await ctx.http();
    const { envelope } = await callOperation(http, convertOp, input);
    const conversionId = (recordsOf(convertOp, envelope) as { conversion_id?: string })?.conversion_id;
    if (!conversionId) throw new CliError('The service did not return a conversion id.');
    const { renderRecord } = await import('../../output/render.js');
    if (!opts.wait) {
      await renderRecord(ctx, { lead_id: input.params.id, conversion_id: conversionId, status: 'started' });
      return;
    }
    ctx.info(`Converting lead ${String(input.params.id)} (job ${conversionId})…`);
    const deadline = Date.now() + timeout * 1000;
    let delay = 250;
    for (;;) {
      const res = await callOperation(http, statusOp, { params: { id: input.params.id, conversion_id: conversionId } });
      const status = recordsOf(statusOp, res.envelope) as { status?: string; deal_id?: number };
      if (status?.status && FINAL.has(status.status)) {
        if (status.status !== 'completed') throw new CliError(`Conversion ${conversionId} ended ${status.status}.`, 1, 'See the lead in the app; the service gave no deal.');
        await renderRecord(ctx, { lead_id: input.params.id, conversion_id: conversionId, status: status.status, deal_id: status.deal_id }, { columns: ['deal_id', 'status', 'conversion_id'] });
        return;
      }
      if (Date.now() > deadline) throw new CliError(`Conversion ${conversionId} still ${status?.status ?? 'unknown'} after ${timeout}s.`, 1, `Check later: crmctl leads conversion-status ${String(input.params.id)} ${conversionId}`);
      await sleep(delay);
      delay = Math.min(2000, delay * 1.5);
    }
  },
};
