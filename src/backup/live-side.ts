/**
 * The live account's side (src/backup/side.ts): its users, pipelines, stages, lead labels, boards and
 * phases as `pull` reads them (src/apply-engine/config/live.ts), and the field catalog of each item type,
 * read fresh (a restore runs right after its configuration was applied: a cached catalog would miss
 * the fields just created).
 */
import { readLive } from '../apply-engine/config/live.js';
import type { Context } from '../core/context.js';
import { checkReader, read, readerOf } from '../entry/prepare.js';
import type { ItemType } from './kinds.js';
import { Side, type FieldDef } from './side.js';

type Rec = Record<string, unknown>;
const ITEMS: ItemType[] = ['deal', 'person', 'organization', 'product', 'activity', 'project'];
const REFERENCE: Record<string, keyof Omit<Side['data'], 'fields' | 'users'>> = { pipeline: 'pipelines', stage: 'stages', 'lead-label': 'leadLabels', board: 'boards', phase: 'phases' };

export async function liveSide(ctx: Context): Promise<{ side: Side; cost: number }> {
  const live = await readLive(ctx, new Set(Object.keys(REFERENCE)));
  const data: Side['data'] = { users: [], pipelines: [], stages: [], leadLabels: [], boards: [], phases: [], fields: {} };
  for (const r of live.records) {
    const k = REFERENCE[r.ck.kind];
    if (k) data[k].push(r.rec as Rec);
  }
  const { userOps } = await import('../api/operations/users.js');
  const users = await read(ctx, userOps.list);
  data.users = Array.isArray(users) ? (users as Rec[]) : [];
  let cost = live.cost + (userOps.list.cost ?? 0);
  const { fieldCatalog } = await import('../names/catalog.js');
  const http = await ctx.http();
  for (const t of ITEMS) {
    const cat = await fieldCatalog(checkReader(ctx), t, readerOf(http));
    cost += 10;
    data.fields[t] = cat.fields.map((f): FieldDef => ({ key: f.key, name: f.name, field_type: f.type, custom: f.custom, options: f.options }));
  }
  return { side: new Side(data), cost };
}
