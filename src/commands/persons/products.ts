import { paginate } from '../../api/call.js';
import { personOperations } from '../../api/operations/persons.js';
import type { CommandSpec } from '../../core/command.js';
import { buildInput, commandFromOperation, pagingOptions } from '../from-operation.js';

const op = personOperations.find((o) => o.id === 'persons.products')!;

/**
 * The service keys each entry by deal id (`[{"7": {deal, product}}]`), which no table can show;
 * each deal product becomes one row `{deal_id, deal, product}` with nothing dropped.
 */
export async function* dealProductRows(entries: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  for await (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    for (const [dealId, v] of Object.entries(entry as Record<string, { deal?: unknown; product?: unknown }>)) {
      yield { deal_id: Number(dealId), deal: v?.deal ?? null, product: v?.product ?? null };
    }
  }
}

export const productsCommand: CommandSpec = {
  ...commandFromOperation(op),
  generated: false,
  async run(ctx, { args, opts }) {
    const input = await buildInput(ctx, op, args, opts);
    const paging = pagingOptions(opts);
    if (paging.limit !== undefined && paging.limit > (op.maxLimit ?? 500)) paging.all = true;
    const { checkFields, renderRecords } = await import('../../output/render.js');
    checkFields(ctx, op.cli.fields);
    const http = await ctx.http();
    await renderRecords(ctx, dealProductRows(paginate(http, op, input, paging)), { columns: op.cli.columns, fields: op.cli.fields });
  },
};
