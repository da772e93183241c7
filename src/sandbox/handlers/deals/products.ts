// Products on deals (v2): list per deal and across deals, add one or many (up to 100), change, delete one
// or many, and the deal's discounts. Every change recomputes the deal's value (catalog.ts) and so
// emits the deal's change event.
import { randomUUID } from 'node:crypto';
import { created, ok } from '../../http/envelope.js';
import { invalid, notFound } from '../../http/errors.js';
import { cursorPage } from '../../http/paginate.js';
import type { Deal, DealProduct } from '../../store/records.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee } from '../../engine/access.js';
import { loadRecord, sortRows, writeEnv } from '../../engine/crud.js';
import { parseMembers, r, type Rule } from '../../engine/rules.js';
import { v2Time } from '../../engine/time.js';
import { installmentsOf } from '../deal-installments/routes.js';
import { BILLING_FREQUENCIES, dealDiscounts, lineRecord, lineSum, updateDealValue, type DealDiscount, type LineInput } from '../products/catalog.js';
import { dealSpec } from './spec.js';

const READ = ['products:read', 'products:full', 'deals:read', 'deals:full'];
const WRITE = ['products:full', 'deals:full'];

const LINE: Record<string, Rule> = {
  product_id: r.custom((v, f, env) => {
    const id = r.int({ min: 1 }).parse(v, f, env) as number;
    const p = env.state.products.get(id);
    if (!p) throw invalid(f, `no product with id ${id}`);
    return id;
  }),
  item_price: r.number(),
  quantity: r.number({ min: 0 }),
  tax: r.number({ min: 0 }),
  comments: r.string({ empty: true, max: 65_000 }),
  discount: r.number({ min: 0 }),
  is_enabled: r.bool(),
  tax_method: r.oneOf(['exclusive', 'inclusive', 'none'] as const),
  discount_type: r.oneOf(['percentage', 'amount'] as const),
  product_variation_id: r.nullable(r.int({ min: 1 })),
  billing_frequency: r.oneOf(BILLING_FREQUENCIES),
  billing_frequency_cycles: r.nullable(r.int({ min: 1, max: 208 })),
  billing_start_date: r.nullable(r.date()),
};

const present = (l: DealProduct) => ({
  id: l.id, sum: l.sum, tax: l.tax, deal_id: l.deal_id, name: l.name, product_id: l.product_id, product_variation_id: l.product_variation_id,
  order_nr: l.order_nr, add_time: v2Time(l.add_time), update_time: v2Time(l.update_time), comments: l.comments, currency: l.currency,
  discount: l.discount, discount_type: l.discount_type, quantity: l.quantity, item_price: l.item_price, tax_method: l.tax_method,
  is_enabled: l.is_enabled, billing_frequency: l.billing_frequency, billing_frequency_cycles: l.billing_frequency_cycles,
  billing_start_date: l.billing_start_date,
});

/** Rules across the members of one line, against the deal it goes on. */
function checkLine(req: SandboxRequest, ctx: HandlerContext, deal: Deal, l: Partial<LineInput>, where: string): void {
  const { state } = ctx;
  if (l.discount_type === 'percentage' && Number(l.discount ?? 0) > 100) throw invalid(`${where}discount`, 'a percentage discount must be at most 100');
  if (l.product_variation_id != null && l.product_id !== undefined) {
    const v = state.collection<{ id: number; product_id: number }>('productVariations').get(Number(l.product_variation_id));
    if (!v || v.product_id !== l.product_id) throw invalid(`${where}product_variation_id`, `is not a variation of product ${l.product_id}`);
  }
  const recurring = l.billing_frequency !== undefined && l.billing_frequency !== 'one-time';
  if (!recurring && l.billing_frequency_cycles != null) throw invalid(`${where}billing_frequency_cycles`, 'is only for recurring billing frequencies');
  if (!recurring && l.billing_start_date != null) throw invalid(`${where}billing_start_date`, 'is only for recurring billing frequencies');
  // A deal with installments cannot take recurring products (the vendor's documents).
  if (recurring && installmentsOf(state, deal.id).length) throw invalid(`${where}billing_frequency`, `deal ${deal.id} has installments; recurring products cannot be added to it`);
  void req;
}

function parseLine(req: SandboxRequest, ctx: HandlerContext, deal: Deal, body: unknown, where = ''): LineInput {
  const l = parseMembers(LINE, body, writeEnv(req, ctx), { required: ['product_id', 'item_price', 'quantity'], prefix: where }) as unknown as LineInput;
  checkLine(req, ctx, deal, l, where);
  return l;
}

function loadDeal(req: SandboxRequest, ctx: HandlerContext): Deal {
  return loadRecord(dealSpec, ctx.state, req);
}

function loadLine(ctx: HandlerContext, deal: Deal, raw: string): DealProduct {
  if (!/^\d+$/.test(raw)) throw invalid('product_attachment_id', 'must be a positive integer');
  const l = ctx.state.dealProducts.get(Number(raw));
  if (!l || l.deal_id !== deal.id) throw notFound(`Product attachment ${raw} not found on deal ${deal.id}`);
  return l;
}

function insertLines(req: SandboxRequest, ctx: HandlerContext, deal: Deal, lines: LineInput[]): DealProduct[] {
  const env = writeEnv(req, ctx);
  const out = lines.map((l) => ctx.state.dealProducts.insert(lineRecord(ctx.state, deal, l, env.now), { userId: req.userId }));
  updateDealValue(ctx.state, deal.id, req.userId, env.now);
  return out;
}

const SORT = ['id', 'add_time', 'update_time', 'order_nr'];

export const dealProductRoutes: RouteDef[] = [
  {
    method: 'GET', path: '/api/v2/deals/{id}/products', cost: 10, scopes: READ,
    handler: (req, ctx) => {
      const deal = loadDeal(req, ctx);
      const rows = sortRows(ctx.state.dealProducts.filter((l) => l.deal_id === deal.id), req.query, SORT);
      const page = cursorPage(rows.map((l, rank) => ({ id: l.id, rank, l })), req.query, { field: 'rank', maxLimit: 500 });
      return ok(page.data.map(({ l }) => present(l)), page.additional_data);
    },
  },
  {
    method: 'GET', path: '/api/v2/deals/products', cost: 10, scopes: READ,
    handler: (req, ctx) => {
      const raw = req.query.list('deal_ids');
      if (!raw?.length) throw invalid('deal_ids', 'is required (comma-separated deal ids, at most 100)');
      if (raw.length > 100) throw invalid('deal_ids', 'must have at most 100 ids');
      for (const x of raw) if (!/^\d+$/.test(x)) throw invalid('deal_ids', `${x} is not an integer id`);
      const visible = new Set(raw.map(Number).filter((id) => { const d = ctx.state.deals.get(id); return d && canSee(ctx.state, req.user, d); }));
      const rows = sortRows(ctx.state.dealProducts.filter((l) => visible.has(l.deal_id)), req.query, [...SORT, 'deal_id']);
      const page = cursorPage(rows.map((l, rank) => ({ id: l.id, rank, l })), req.query, { field: 'rank', maxLimit: 500 });
      return ok(page.data.map(({ l }) => present(l)), page.additional_data);
    },
  },
  {
    method: 'POST', path: '/api/v2/deals/{id}/products', cost: 5, scopes: WRITE,
    handler: (req, ctx) => {
      const deal = loadDeal(req, ctx);
      return created(present(insertLines(req, ctx, deal, [parseLine(req, ctx, deal, req.body)])[0]!));
    },
  },
  {
    method: 'POST', path: '/api/v2/deals/{id}/products/bulk', cost: 25, scopes: WRITE,
    handler: (req, ctx) => {
      const deal = loadDeal(req, ctx);
      const b = req.body as { data?: unknown } | undefined;
      if (typeof b !== 'object' || b === null || Array.isArray(b)) throw invalid('body', 'must be a JSON object {data: [...]}');
      for (const k of Object.keys(b)) if (k !== 'data') throw invalid(k, 'is not a known field of this operation');
      if (!Array.isArray(b.data) || b.data.length === 0) throw invalid('data', 'must be a non-empty array of products');
      if (b.data.length > 100) throw invalid('data', 'must have at most 100 products');
      // Every line is checked before any is added.
      const lines = b.data.map((x, i) => parseLine(req, ctx, deal, x, `data[${i}].`));
      return created(insertLines(req, ctx, deal, lines).map(present));
    },
  },
  {
    method: 'PATCH', path: '/api/v2/deals/{id}/products/{product_attachment_id}', cost: 5, scopes: WRITE,
    handler: (req, ctx) => {
      const deal = loadDeal(req, ctx);
      const line = loadLine(ctx, deal, req.params.product_attachment_id!);
      const env = writeEnv(req, ctx);
      const patch = parseMembers(LINE, req.body, env) as Partial<LineInput>;
      if (!Object.keys(patch).length) throw invalid('body', 'at least one field to change is needed');
      const next = { ...line, ...patch } as DealProduct;
      checkLine(req, ctx, deal, next, '');
      if (patch.product_id !== undefined && patch.product_id !== line.product_id) next.name = ctx.state.products.get(patch.product_id)!.name;
      ctx.state.dealProducts.update(line.id, { ...patch, name: next.name, sum: lineSum(next), update_time: env.now }, { userId: req.userId });
      updateDealValue(ctx.state, deal.id, req.userId, env.now);
      return ok(present(ctx.state.dealProducts.get(line.id)!));
    },
  },
  {
    method: 'DELETE', path: '/api/v2/deals/{id}/products/{product_attachment_id}', cost: 3, scopes: WRITE,
    handler: (req, ctx) => {
      const deal = loadDeal(req, ctx);
      const line = loadLine(ctx, deal, req.params.product_attachment_id!);
      ctx.state.dealProducts.markDeleted(line.id, {}, { userId: req.userId });
      updateDealValue(ctx.state, deal.id, req.userId, ctx.now().toISOString());
      return ok({ id: line.id });
    },
  },
  {
    method: 'DELETE', path: '/api/v2/deals/{id}/products', cost: 15, scopes: WRITE,
    handler: (req, ctx) => {
      const deal = loadDeal(req, ctx);
      const raw = req.query.list('ids');
      const all = ctx.state.dealProducts.filter((l) => l.deal_id === deal.id).sort((a, b) => a.id - b.id);
      let chosen: DealProduct[];
      if (raw) {
        if (raw.length > 100) throw invalid('ids', 'must have at most 100 ids');
        for (const x of raw) if (!/^\d+$/.test(x)) throw invalid('ids', `${x} is not an integer id`);
        const want = new Set(raw.map(Number));
        const missing = [...want].filter((id) => !all.some((l) => l.id === id));
        if (missing.length) throw notFound(`Product attachments not found on deal ${deal.id}: ${missing.join(', ')}`);
        chosen = all.filter((l) => want.has(l.id));
      } else chosen = all.slice(0, 100);
      for (const l of chosen) ctx.state.dealProducts.markDeleted(l.id, {}, { userId: req.userId });
      updateDealValue(ctx.state, deal.id, req.userId, ctx.now().toISOString());
      return { status: 200, body: { success: true, data: { ids: chosen.map((l) => l.id) }, additional_data: { more_items_in_collection: !raw && all.length > 100 } } };
    },
  },
  ...discountRoutes(),
];

// ---- discounts --------------------------------------------------------------------------------

const DISCOUNT: Record<string, Rule> = {
  description: r.string({ max: 255 }),
  amount: r.number({ min: 0 }),
  type: r.oneOf(['percentage', 'amount'] as const),
};

const presentDiscount = (d: DealDiscount) => ({
  id: d.id, type: d.type, amount: d.amount, description: d.description, deal_id: d.deal_id, created_at: v2Time(d.created_at),
  created_by: d.created_by, updated_at: v2Time(d.updated_at), updated_by: d.updated_by,
});

function loadDiscount(ctx: HandlerContext, deal: Deal, id: string): DealDiscount {
  const d = dealDiscounts(ctx.state).get(id);
  if (!d || d.deal_id !== deal.id) throw notFound(`Discount ${id} not found on deal ${deal.id}`);
  return d;
}

function checkDiscount(d: { type?: string; amount?: number }): void {
  if (d.type === 'percentage' && (d.amount ?? 0) > 100) throw invalid('amount', 'a percentage discount must be at most 100');
}

function discountRoutes(): RouteDef[] {
  const base = '/api/v2/deals/{id}/discounts';
  return [
    {
      method: 'GET', path: base, cost: 10, scopes: ['deals:read', 'deals:full'],
      handler: (req, ctx) => {
        const deal = loadDeal(req, ctx);
        return ok(dealDiscounts(ctx.state).filter((d) => d.deal_id === deal.id).map(presentDiscount));
      },
    },
    {
      method: 'POST', path: base, cost: 5, scopes: ['deals:full'],
      handler: (req, ctx) => {
        const deal = loadDeal(req, ctx);
        const env = writeEnv(req, ctx);
        const b = parseMembers(DISCOUNT, req.body, env, { required: ['description', 'amount', 'type'] }) as { description: string; amount: number; type: 'percentage' | 'amount' };
        checkDiscount(b);
        const d = dealDiscounts(ctx.state).insert({ id: randomUUID(), deal_id: deal.id, ...b, created_at: env.now, created_by: req.userId, updated_at: env.now, updated_by: req.userId });
        updateDealValue(ctx.state, deal.id, req.userId, env.now);
        return created(presentDiscount(d));
      },
    },
    {
      method: 'PATCH', path: `${base}/{discount_id}`, cost: 5, scopes: ['deals:full'],
      handler: (req, ctx) => {
        const deal = loadDeal(req, ctx);
        const cur = loadDiscount(ctx, deal, req.params.discount_id!);
        const env = writeEnv(req, ctx);
        const b = parseMembers(DISCOUNT, req.body, env);
        if (!Object.keys(b).length) throw invalid('body', 'at least one of description, amount, type is needed');
        checkDiscount({ ...cur, ...b });
        dealDiscounts(ctx.state).update(cur.id, { ...b, updated_at: env.now, updated_by: req.userId });
        updateDealValue(ctx.state, deal.id, req.userId, env.now);
        return ok(presentDiscount(dealDiscounts(ctx.state).get(cur.id)!));
      },
    },
    {
      method: 'DELETE', path: `${base}/{discount_id}`, cost: 3, scopes: ['deals:full'],
      handler: (req, ctx) => {
        const deal = loadDeal(req, ctx);
        const d = loadDiscount(ctx, deal, req.params.discount_id!);
        dealDiscounts(ctx.state).markDeleted(d.id);
        updateDealValue(ctx.state, deal.id, req.userId, ctx.now().toISOString());
        return ok({ id: d.id });
      },
    },
  ];
}
