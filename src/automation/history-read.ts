/**
 * The service side of `crmctl history`: a record's field changelog (v1 only: the vendor has no v2
 * form), every page, through the one entry, as ServiceChange values.
 */
import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { readAll } from '../entry/prepare.js';
import { toRfc3339 } from './changes-time.js';
import { logText, type ServiceChange } from './history-merge.js';

type Rec = Record<string, unknown>;

/** Every entry of the record's changelog (newest first as served; the merge orders them). */
export async function serviceChanges(ctx: Context, changelog: Operation, id: string): Promise<ServiceChange[]> {
  const out: ServiceChange[] = [];
  for await (const raw of readAll(ctx, changelog, { params: { id } })) {
    const r = raw as Rec;
    const at = Date.parse(toRfc3339(r.time) ?? '');
    if (typeof r.field_key !== 'string' || Number.isNaN(at)) continue;
    out.push({
      field: r.field_key, old_value: logText(r.old_value), new_value: logText(r.new_value),
      user_id: typeof r.actor_user_id === 'number' ? r.actor_user_id : null, at,
      source: typeof r.change_source === 'string' ? r.change_source : null,
      agent: typeof r.change_source_user_agent === 'string' ? r.change_source_user_agent : null,
    });
  }
  return out;
}
