/**
 * Options of built-in fields a restore needs before a kind's records (a product's category is an option
 * of the product field Category; the configuration `pull` writes holds custom fields only). The labels
 * the backup's records use and the target lacks are added to the target's field in one call, then the
 * records are written with the target's option ids (restore-body.ts). Added again after a kill, nothing
 * changes: the options are read afresh and only missing labels are sent.
 */
import { callOperation, recordsOf } from '../api/call.js';
import type { Context } from '../core/context.js';
import type { HttpPort } from '../core/http-port.js';
import { checkReader, prepare, readerOf } from '../entry/prepare.js';
import { backupKind, type ItemType } from './kinds.js';
import type { Side } from './side.js';
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';

type Rec = Record<string, unknown>;

/** The field tables whose options restore may add (item types with an `option:` link in kinds.ts). */
const FIELD_OPS: Partial<Record<ItemType, () => Promise<{ addOptions: import('../api/operation.js').Operation }>>> = {
  product: () => import('../api/operations/product-fields.js').then((m) => m.productFieldOps),
};

export async function ensureOptions(ctx: Context, http: HttpPort, source: Side, target: Side, kind: string, file: string): Promise<void> {
  const k = backupKind(kind);
  const item = k?.itemType;
  const table = item && FIELD_OPS[item];
  if (!k || !item || !table || !existsSync(file)) return;
  for (const [field, to] of Object.entries(k.links)) {
    if (!to.startsWith('option:')) continue;
    const code = to.slice('option:'.length);
    const def = target.fieldsOf(item).find((f) => !f.custom && f.key === code);
    if (!def) continue;
    const want = new Set<string>();
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      if (!line.trim()) continue;
      const v = (JSON.parse(line) as Rec)[field];
      const label = v === null || v === undefined || v === '' ? undefined : source.optionLabel(item, code, v);
      if (label !== undefined) want.add(label);
    }
    const missing = [...want].filter((l) => !def.options.some((o) => o.label === l));
    if (!missing.length) continue;
    const op = (await table()).addOptions;
    const input = await prepare(ctx, op, { params: { field_code: code }, body: missing.map((label) => ({ label })) }, { naming: 'keys' });
    const { envelope } = await callOperation(http, op, input, {
      // An answer lost after the options were added: read the field again rather than add them twice.
      reconcile: async () => {
        const { fieldCatalog, forgetFields } = await import('../names/catalog.js');
        await forgetFields(checkReader(ctx), item);
        const now = (await fieldCatalog(checkReader(ctx), item, readerOf(http))).fields.find((f) => !f.custom && f.key === code);
        const got = now?.options.filter((o) => missing.includes(o.label)) ?? [];
        return got.length === missing.length ? { status: 200, headers: {}, body: { success: true, data: got } } : undefined;
      },
    });
    const added = recordsOf(op, envelope);
    if (Array.isArray(added)) for (const o of added as Array<{ id: number | string; label: string }>) def.options.push({ id: o.id, label: o.label });
    ctx.io.stderr.write(`Added ${missing.length} option${missing.length > 1 ? 's' : ''} to the ${item} field ${def.name}: ${missing.join(', ')}.\n`);
  }
}
