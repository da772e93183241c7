import { dealOps } from '../../api/operations/deals.js';
import type { Context } from '../../core/context.js';
import type { ValidInput } from '../../input/operation-input.js';
import type { CommandExtension } from '../operation-command.js';

/**
 * Attaching, changing or removing a deal's products changes the deal's value (the service sums the
 * products): a terminal is told the new value, read with one GET of the deal (cost 1) after the
 * change. Off a terminal nothing is read; a script reads the deal itself when it needs the value.
 */
export const dealValueNotice: NonNullable<CommandExtension['after']> = {
  calls: [dealOps.get],
  async run(ctx: Context, input: ValidInput) {
    if (!ctx.io.isStderrTTY) return;
    const { fetchOperation } = await import('../run-operation.js');
    const id = Number(input.params.id);
    const deal = (await fetchOperation(ctx, dealOps.get, { params: { id } })) as { value?: unknown; currency?: unknown } | null;
    if (!deal || typeof deal.value !== 'number') return;
    ctx.info(`${`Deal ${id} value is now ${deal.value.toLocaleString('en-US')} ${String(deal.currency ?? '')}`.trimEnd()}.`);
  },
};
