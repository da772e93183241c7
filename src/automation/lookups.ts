import { callOperation } from '../api/call.js';
import { prepare } from '../entry/prepare.js';
import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import type { HttpPort } from '../core/http-port.js';
import { findExportResource } from './resources.js';
import type { CustomField } from './row-mapper.js';

/**
 * Custom fields whose names may head a column: those of the item type the create writes (leads use
 * the deal fields: interface, Conventions), from the one field catalog (src/names; cached per profile).
 */
export async function customFieldsFor(ctx: Context, op: Operation): Promise<CustomField[]> {
  const itemType = op.cli.customFields;
  if (!itemType) return [];
  const [{ checkReader }, { fieldCatalog }] = await Promise.all([import('../entry/prepare.js'), import('../names/catalog.js')]);
  const cat = await fieldCatalog(checkReader(ctx), itemType, ctx);
  const out: CustomField[] = cat.custom.map((f) => ({ key: f.key, name: f.name, field_type: f.type }));
  ctx.debug(`custom fields of ${itemType}: ${out.map((f) => `${f.name}=${f.key}`).join(', ') || 'none'}`);
  return out;
}

/**
 * The cost budget per window, read from the x-ratelimit-limit of one cheap read of the resource.
 * The window length is not in the headers; the service's burst window is 2 s (CRMCTL_BUDGET_WINDOW_SEC overrides).
 */
export async function budgetProbe(ctx: Context, http: HttpPort, resource: string): Promise<{ limit: number; windowSec: number } | undefined> {
  const list = findExportResource(resource);
  if (!list || list.required.length) return undefined;
  const { response } = await callOperation(http, list.op, await prepare(ctx, list.op, { query: list.op.pagination === 'none' ? {} : { limit: 1 } }));
  const raw = response.headers['x-ratelimit-limit'];
  const limit = Number(Array.isArray(raw) ? raw[0] : raw);
  const windowSec = Number(ctx.env.CRMCTL_BUDGET_WINDOW_SEC ?? 2);
  return Number.isFinite(limit) && limit > 0 ? { limit, windowSec: windowSec > 0 ? windowSec : 2 } : undefined;
}
