/**
 * The service keys each entry of a person's products by deal id (`[{"7": {deal, product}}]`), which no
 * table can show; each deal product becomes one row `{deal_id, deal, product}` with nothing dropped.
 */
export async function* dealProductRows(entries: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  for await (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    for (const [dealId, v] of Object.entries(entry as Record<string, { deal?: unknown; product?: unknown }>)) {
      yield { deal_id: Number(dealId), deal: v?.deal ?? null, product: v?.product ?? null };
    }
  }
}
