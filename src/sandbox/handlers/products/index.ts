// Area module: products — v2 CRUD (create answers 201), search, duplicate, variations, the product image
// (multipart upload), followers; v1 deals of a product, files and permitted users. A product has prices per
// currency; a variation has its own prices; a product on a deal (deal-product) keeps it from being deleted
// only in the sense that the line stays with the product's name.
import { created, ok } from '../../http/envelope.js';
import { invalid, notFound } from '../../http/errors.js';
import type { UploadedPart } from '../../http/body.js';
import { cursorPage, offsetPage } from '../../http/paginate.js';
import type { Product } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { AreaModule, HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { defaultVisibility } from '../roles/store.js';
import { crudRoutes, loadRecord, writeEnv } from '../../engine/crud.js';
import { presentCustomFields } from '../../engine/fields/values.js';
import { addFollower, followerRoutes } from '../../engine/followers.js';
import type { ResourceSpec } from '../../engine/resource.js';
import { parseMembers, r, REF, type Rule } from '../../engine/rules.js';
import { searchRoute } from '../../engine/search.js';
import { v2Time } from '../../engine/time.js';
import { v1DealDetailed } from '../deals/present.js';
import { searchText } from '../shared/search-text.js';
import { filesRoute, permittedUsersRoute } from '../shared/related.js';
import { BILLING_FREQUENCIES, productRecord } from './catalog.js';

const READ = ['products:read', 'products:full'];
const WRITE = ['products:full'];
const BASE = '/api/v2/products';

const currency: Rule = r.custom((v, f, env) => {
  if (typeof v !== 'string' || !env.state.currencies.find((c) => c.code === v)) throw invalid(f, 'must be a 3-letter currency code the company knows');
  return v;
});
const price = r.object({ currency, price: r.number({ min: 0 }), cost: r.number({ min: 0 }), direct_cost: r.nullable(r.number({ min: 0 })), notes: r.string({ empty: true, max: 255 }) }, { required: ['currency', 'price'] });
/** Prices: one per currency. */
const prices: Rule = r.custom((v, f, env) => {
  const list = r.list(price, { max: 100 }).parse(v, f, env) as Array<{ currency: string }>;
  const seen = new Set<string>();
  for (const [i, p] of list.entries()) {
    if (seen.has(p.currency)) throw invalid(`${f}[${i}].currency`, `${p.currency} is priced twice; give one price per currency`);
    seen.add(p.currency);
  }
  return list;
});

const MEMBERS: Record<string, Rule> = {
  name: r.string({ max: 255 }),
  code: r.nullable(r.string({ empty: true, max: 255 })),
  description: r.nullable(r.string({ empty: true, max: 65_000 })),
  unit: r.nullable(r.string({ empty: true, max: 255 })),
  tax: r.number({ min: 0, max: 100 }),
  category: r.nullable(r.number()),
  owner_id: r.ref(REF.user),
  is_linkable: r.bool(),
  visible_to: r.visibleTo(),
  prices,
  custom_fields: r.custom((v) => v),
  billing_frequency: r.oneOf(BILLING_FREQUENCIES),
  billing_frequency_cycles: r.nullable(r.int({ min: 1, max: 208 })),
};

type PriceIn = { currency: string; price: number; cost?: number; direct_cost?: number | null; notes?: string };
const fullPrice = (p: PriceIn) => ({ currency: p.currency, price: p.price, cost: p.cost ?? 0, direct_cost: p.direct_cost ?? null, notes: p.notes ?? '' });

function cycles(input: Record<string, unknown>, current?: Product): void {
  const freq = (input.billing_frequency as string | undefined) ?? current?.billing_frequency ?? 'one-time';
  if (input.billing_frequency_cycles != null && freq === 'one-time') throw invalid('billing_frequency_cycles', 'is only for recurring billing frequencies');
}

function presentProduct(state: SandboxState, p: Product, o: { customKeys?: string[]; optionLabels: boolean } = { optionLabels: false }) {
  return {
    id: p.id, name: p.name, code: p.code, unit: p.unit, tax: p.tax, is_deleted: p.is_deleted, is_linkable: p.is_linkable, visible_to: p.visible_to,
    owner_id: p.owner_id, add_time: v2Time(p.add_time), update_time: v2Time(p.update_time), description: p.description,
    category: p.category === null ? null : String(p.category), custom_fields: presentCustomFields(state, 'product', p.custom_fields, o),
    billing_frequency: p.billing_frequency, billing_frequency_cycles: p.billing_frequency_cycles,
    prices: p.prices.map((x) => ({ product_id: p.id, ...x })),
  };
}

export const productSpec: ResourceSpec<Product> = {
  object: 'product',
  collection: (s) => s.products,
  notFound: 'Product not found',
  base: BASE,
  scopes: { read: READ, write: WRITE, search: ['products:read', 'products:full', 'search:read'] },
  createStatus: 201,
  fields: 'product',
  owned: true,
  members: MEMBERS,
  required: ['name'],
  build: (env, input) => {
    cycles(input);
    const { custom_fields, prices: pr, ...rest } = input;
    return productRecord({
      ...(rest as Partial<Product>), name: input.name as string, prices: ((pr ?? []) as PriceIn[]).map(fullPrice),
      visible_to: (input.visible_to as number | undefined) ?? defaultVisibility(env.state, env.req.user, 'product'),
      custom_fields: Object.fromEntries(Object.entries((custom_fields ?? {}) as Record<string, unknown>).filter(([, v]) => v !== null)),
    }, env.now, (input.owner_id as number | undefined) ?? env.userId);
  },
  change: (_env, p, input) => {
    cycles(input, p);
    const { custom_fields: _c, prices: pr, ...rest } = input;
    return { ...(rest as Partial<Product>), ...(pr !== undefined ? { prices: (pr as PriceIn[]).map(fullPrice) } : {}) };
  },
  after: (env, p, action) => { if (action === 'create') addFollower(env.state, 'product', p.id, p.owner_id, env.userId, env.now); },
  present: (state, p, o) => presentProduct(state, p, o),
  list: {
    filters: { owner_id: { kind: 'int', test: (p, v: number) => p.owner_id === v } },
    sortBy: ['id', 'name', 'add_time', 'update_time'],
    filterType: 'products',
    ids: true,
    updated: true,
  },
  search: {
    fields: ['code', 'custom_fields', 'name'],
    match: (state, p, term, exact, fields) => searchText(state, {
      term, exact, fields, title: [...(fields.has('name') ? [p.name] : []), ...(fields.has('code') && p.code ? [p.code] : [])], entity: 'product', custom: p.custom_fields,
    }),
    item: (_state, p, hit) => ({ id: p.id, type: 'product', name: p.name, code: p.code, visible_to: p.visible_to, owner: { id: p.owner_id }, custom_fields: hit.custom }),
  },
};

const loadProduct = (req: SandboxRequest, ctx: HandlerContext) => loadRecord(productSpec, ctx.state, req);
const now = (ctx: HandlerContext) => ctx.now().toISOString();

function duplicate(req: SandboxRequest, ctx: HandlerContext) {
  const p = loadProduct(req, ctx);
  const { id: _id, ...rest } = structuredClone(p);
  const copy = ctx.state.products.insert({ ...rest, name: `${p.name} (copy)`, add_time: now(ctx), update_time: now(ctx), owner_id: req.userId }, { userId: req.userId });
  for (const v of variations(ctx.state).filter((x) => x.product_id === p.id)) {
    variations(ctx.state).insert({ product_id: copy.id, name: v.name, prices: structuredClone(v.prices) }, { silent: true });
  }
  return created(presentProduct(ctx.state, copy));
}

// ---- variations ----

interface Variation { id: number; product_id: number; name: string; prices: ReturnType<typeof fullPrice>[]; [k: string]: unknown }
export const variations = (s: SandboxState) => s.collection<Variation>('productVariations', { idKind: 'int' });
const VARIATION: Record<string, Rule> = { name: r.string({ max: 255 }), prices };
const presentVariation = (v: Variation) => ({ id: v.id, name: v.name, product_id: v.product_id, prices: v.prices.map((p) => ({ product_variation_id: v.id, ...p })) });

function loadVariation(req: SandboxRequest, ctx: HandlerContext, p: Product): Variation {
  const raw = req.params.product_variation_id!;
  if (!/^\d+$/.test(raw)) throw invalid('product_variation_id', 'must be a positive integer');
  const v = variations(ctx.state).get(Number(raw));
  if (!v || v.product_id !== p.id) throw notFound('Product variation not found');
  return v;
}

const variationRoutes: RouteDef[] = [
  { method: 'GET', path: `${BASE}/{id}/variations`, cost: 10, scopes: READ, handler: (req, ctx) => {
    const p = loadProduct(req, ctx);
    const rows = variations(ctx.state).filter((v) => v.product_id === p.id).sort((a, b) => a.id - b.id);
    const cp = cursorPage(rows, req.query);
    return ok(cp.data.map(presentVariation), cp.additional_data);
  } },
  { method: 'POST', path: `${BASE}/{id}/variations`, cost: 5, scopes: WRITE, handler: (req, ctx) => {
    const p = loadProduct(req, ctx);
    const b = parseMembers(VARIATION, req.body, writeEnv(req, ctx), { required: ['name'] });
    const v = variations(ctx.state).insert({ product_id: p.id, name: b.name as string, prices: ((b.prices ?? []) as PriceIn[]).map(fullPrice) }, { userId: req.userId });
    return created(presentVariation(v));
  } },
  { method: 'PATCH', path: `${BASE}/{id}/variations/{product_variation_id}`, cost: 5, scopes: WRITE, handler: (req, ctx) => {
    const p = loadProduct(req, ctx);
    const v = loadVariation(req, ctx, p);
    const b = parseMembers(VARIATION, req.body, writeEnv(req, ctx));
    const patch: Partial<Variation> = {};
    if (b.name !== undefined) patch.name = b.name as string;
    if (b.prices !== undefined) patch.prices = (b.prices as PriceIn[]).map(fullPrice);
    return ok(presentVariation(variations(ctx.state).update(v.id, patch, { userId: req.userId })!));
  } },
  { method: 'DELETE', path: `${BASE}/{id}/variations/{product_variation_id}`, cost: 3, scopes: WRITE, handler: (req, ctx) => {
    const p = loadProduct(req, ctx);
    const v = loadVariation(req, ctx, p);
    variations(ctx.state).remove(v.id);
    return ok({ id: v.id });
  } },
];

// ---- the product image ----

interface Image { id: number; product_id: number; name: string; mime_type: string; size: number; add_time: string; [k: string]: unknown }
const images = (s: SandboxState) => s.collection<Image>('productImages', { idKind: 'int' });
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

function presentImage(state: SandboxState, i: Image) {
  return { id: i.id, product_id: i.product_id, company_id: String(state.company.id), public_url: `https://images.sandbox.invalid/products/${i.product_id}/${i.id}/${encodeURIComponent(i.name)}`, add_time: v2Time(i.add_time), mime_type: i.mime_type, name: i.name };
}

/** The uploaded file of a multipart body's `data` part: an image, at most 50 MB. */
function uploadedImage(req: SandboxRequest): UploadedPart {
  const body = (req.body ?? {}) as Record<string, UploadedPart | string>;
  for (const k of Object.keys(body)) if (k !== 'data') throw invalid(k, 'is not a known field of this operation');
  const part = body.data;
  if (part === undefined) throw invalid('data', 'is required (the image file)');
  if (typeof part === 'string' || !part.filename) throw invalid('data', 'must be a file part');
  const type = part.contentType ?? 'application/octet-stream';
  if (!IMAGE_TYPES.includes(type)) throw invalid('data', `must be an image (${IMAGE_TYPES.join(', ')}), not ${type}`);
  if (part.data.length === 0) throw invalid('data', 'is empty');
  return part;
}

const imageOf = (state: SandboxState, productId: number) => images(state).find((i) => i.product_id === productId);

function putImage(req: SandboxRequest, ctx: HandlerContext, replace: boolean) {
  const p = loadProduct(req, ctx);
  const part = uploadedImage(req);
  const existing = imageOf(ctx.state, p.id);
  if (!replace && existing) throw invalid('data', `product ${p.id} has an image already; replace it with PUT`);
  if (replace && !existing) throw notFound('Product image not found');
  if (existing) images(ctx.state).remove(existing.id);
  const img = images(ctx.state).insert({ product_id: p.id, name: part.filename!, mime_type: part.contentType!, size: part.data.length, add_time: now(ctx) }, { userId: req.userId });
  // Adding answers 201, replacing 200 (the vendor's documents).
  return ok(presentImage(ctx.state, img), null, replace ? 200 : 201);
}

const imageRoutes: RouteDef[] = [
  { method: 'GET', path: `${BASE}/{id}/images`, cost: 10, scopes: READ, handler: (req, ctx) => {
    const p = loadProduct(req, ctx);
    const img = imageOf(ctx.state, p.id);
    if (!img) throw notFound('Product image not found');
    return ok(presentImage(ctx.state, img));
  } },
  { method: 'POST', path: `${BASE}/{id}/images`, cost: 20, scopes: WRITE, body: 'multipart', handler: (req, ctx) => putImage(req, ctx, false) },
  { method: 'PUT', path: `${BASE}/{id}/images`, cost: 20, scopes: WRITE, body: 'multipart', handler: (req, ctx) => putImage(req, ctx, true) },
  { method: 'DELETE', path: `${BASE}/{id}/images`, cost: 6, scopes: WRITE, handler: (req, ctx) => {
    const p = loadProduct(req, ctx);
    const img = imageOf(ctx.state, p.id);
    if (!img) throw notFound('Product image not found');
    images(ctx.state).remove(img.id);
    return ok({ id: img.id });
  } },
];

// ---- v1 ----

const V1 = '/api/v1/products/{id}';
function productDeals(req: SandboxRequest, ctx: HandlerContext) {
  const p = loadProduct(req, ctx);
  const status = req.query.oneOf('status', ['open', 'won', 'lost', 'deleted', 'all_not_deleted'] as const) ?? 'all_not_deleted';
  const dealIds = new Set(ctx.state.dealProducts.filter((l) => l.product_id === p.id).map((l) => l.deal_id));
  // Archived deals are served only by the archived list (since 2025-07-15).
  const rows = ctx.state.deals.allWithDeleted().filter((d) => dealIds.has(d.id) && !d.is_archived).filter((d) => {
    const deleted = ctx.state.deals.isDeleted(d.id);
    if (status === 'deleted') return deleted;
    return !deleted && (status === 'all_not_deleted' || d.status === status);
  }).sort((a, b) => a.id - b.id);
  const page = offsetPage(rows.map((d) => v1DealDetailed(ctx.state, d)), req.query);
  return ok(page.data, page.additional_data);
}

export const productsArea: AreaModule = {
  name: 'products',
  routes: [
    searchRoute(productSpec),
    ...crudRoutes(productSpec),
    { method: 'POST', path: `${BASE}/{id}/duplicate`, cost: 5, scopes: WRITE, handler: duplicate },
    ...variationRoutes,
    ...imageRoutes,
    ...followerRoutes({ object: 'product', v2: `${BASE}/{id}`, v1: V1, v1Key: 'product_id', v1AddStatus: 201, read: READ, write: WRITE, load: loadProduct }),
    { method: 'GET', path: `${V1}/deals`, cost: 20, scopes: ['deals:read', 'deals:full'], handler: productDeals },
    filesRoute(V1, 'product_id', READ, loadProduct),
    permittedUsersRoute(V1, READ, loadProduct),
  ],
};
