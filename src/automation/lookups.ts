import { callOperation } from '../api/call.js';
import { prepare, readAll } from '../api/prepare.js';
import type { Context } from '../core/context.js';
import type { HttpClient } from '../http/client.js';
import { findExportResource } from './resources.js';
import type { CustomField } from './row-mapper.js';
import { dealFieldOps } from '../api/operations/deal-fields.js';

const CUSTOM_KEY = /^[0-9a-f]{40}$/;

/**
 * Custom fields whose names may head a column. Leads have no schema of their own: they use the deal
 * fields (interface, Conventions), read with GET /api/v1/dealFields.
 */
export async function customFieldsFor(ctx: Context, _http: HttpClient, resource: string): Promise<CustomField[]> {
  if (resource !== 'leads') return [];
  const out: CustomField[] = [];
  for await (const f of readAll(ctx, dealFieldOps.listV1, {}, { all: true })) {
    const field = f as CustomField;
    if (typeof field.key === 'string' && CUSTOM_KEY.test(field.key)) out.push(field);
  }
  ctx.debug(`custom fields of leads: ${out.map((f) => `${f.name}=${f.key}`).join(', ') || 'none'}`);
  return out;
}

/**
 * The cost budget per window, read from the x-ratelimit-limit of one cheap read of the resource.
 * The window length is not in the headers; the service's burst window is 2 s (CRMCTL_BUDGET_WINDOW_SEC overrides).
 */
export async function budgetProbe(ctx: Context, http: HttpClient, resource: string): Promise<{ limit: number; windowSec: number } | undefined> {
  const list = findExportResource(resource);
  if (!list || list.required.length) return undefined;
  const { response } = await callOperation(http, list.op, await prepare(ctx, list.op, { query: list.op.pagination === 'none' ? {} : { limit: 1 } }));
  const raw = response.headers['x-ratelimit-limit'];
  const limit = Number(Array.isArray(raw) ? raw[0] : raw);
  const windowSec = Number(ctx.env.CRMCTL_BUDGET_WINDOW_SEC ?? 2);
  return Number.isFinite(limit) && limit > 0 ? { limit, windowSec: windowSec > 0 ? windowSec : 2 } : undefined;
}
