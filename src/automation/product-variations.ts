import type { CheckReader, Reader } from '../api/entry-types.js';
import type { HttpPort } from '../core/http-port.js';
import { callOperation } from '../api/call.js';
import type { Issue } from './validate-body.js';

// A product's variations are a list of their own (GET /api/v2/products/{id}/variations), not members
// of the product: an export of products carries them in a `variations` member (a JSON cell in CSV) so
// the file moves the whole product to another account, and import adds them after the product is
// created (POST /api/v2/products/{id}/variations, one per variation). Issue 30.4.

/** What a variation carries to another account: its name and prices (no ids, no product_id). */
export interface VariationInput {
  name: string;
  prices?: Array<Record<string, unknown>>;
}

/** The members of a price a variation's create takes. */
const PRICE_MEMBERS = ['currency', 'price', 'cost', 'direct_cost'];

const portable = (v: Record<string, unknown>): VariationInput => {
  const prices = Array.isArray(v.prices)
    ? (v.prices as Array<Record<string, unknown>>).map((p) => Object.fromEntries(PRICE_MEMBERS.filter((k) => p?.[k] !== undefined && p[k] !== null).map((k) => [k, p[k]])))
    : undefined;
  return { name: String(v.name), ...(prices?.length ? { prices } : {}) };
};

/**
 * The products with their variations (one read of 10 units per product: the list has no member for
 * them). A product without variations is left as it is.
 */
export async function withVariations(reader: CheckReader, records: unknown[]): Promise<unknown[]> {
  const { productOps } = await import('../api/operations/products.js');
  const out: unknown[] = [];
  for (const r of records) {
    const id = r && typeof r === 'object' ? (r as { id?: unknown }).id : undefined;
    if (id === undefined || id === null) {
      out.push(r);
      continue;
    }
    const variations: VariationInput[] = [];
    for await (const v of reader.readAll(productOps.variations, { params: { id } }, { all: true })) variations.push(portable(v as Record<string, unknown>));
    out.push(variations.length ? { ...(r as object), variations } : r);
  }
  return out;
}

/** A row's `variations` (a list, or its JSON in a CSV cell) → what import adds after the create, or the issue. */
export function variationsOf(v: unknown): { variations: VariationInput[] } | { issue: Issue } {
  let list = v;
  if (typeof v === 'string') {
    if (v.trim() === '') return { variations: [] };
    try {
      list = JSON.parse(v);
    } catch {
      list = undefined;
    }
  }
  const bad = { issue: { field: 'variations', rule: 'must be a JSON list of variations ({"name": ..., "prices": [...]})' } };
  if (!Array.isArray(list)) return bad;
  if (list.some((x) => !x || typeof x !== 'object' || typeof (x as { name?: unknown }).name !== 'string' || (x as { name: string }).name.trim() === '')) return bad;
  return { variations: (list as Array<Record<string, unknown>>).map(portable) };
}

/**
 * Adds a created product's variations, through the one entry (its checks: one price per currency).
 * Returns the refusals (the product stays created; the caller says which variations did not land).
 */
export async function addVariations(reader: Reader, http: HttpPort, productId: unknown, variations: VariationInput[]): Promise<string[]> {
  const [{ productOps }, { prepare }] = await Promise.all([import('../api/operations/products.js'), import('../entry/prepare.js')]);
  const refused: string[] = [];
  for (const v of variations) {
    try {
      await callOperation(http, productOps.addVariation, await prepare(reader, productOps.addVariation, { params: { id: productId }, body: { ...v } }));
    } catch (err) {
      refused.push(`variation ${JSON.stringify(v.name)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return refused;
}
