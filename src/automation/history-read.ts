/**
 * The service side of `crmctl history`: a record's field changelog (v1 only: the vendor has no v2
 * form), every page, through the one entry, as ServiceChange values.
 */
import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { readAll } from '../entry/prepare.js';
import { toRfc3339 } from './changes-time.js';
import { logText, type FlowEvent, type ServiceChange } from './history-merge.js';

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

/** Flow objects that are records crmctl's runs may have created, by the kind their runs name. */
const FLOW_KINDS: Record<string, string> = { note: 'notes', activity: 'activities', plannedActivity: 'activities', file: 'files', deal: 'deals' };

/** What the flow tells besides field changes (those come from the changelog): notes, activities, files, followers… */
export async function flowEvents(ctx: Context, flow: Operation, id: string): Promise<FlowEvent[]> {
  const out: FlowEvent[] = [];
  for await (const raw of readAll(ctx, flow, { params: { id } })) {
    const r = raw as { object?: unknown; timestamp?: unknown; data?: Rec };
    const at = Date.parse(toRfc3339(r.timestamp) ?? '');
    if (typeof r.object !== 'string' || /Change$/.test(r.object) || Number.isNaN(at)) continue;
    const d = r.data ?? {};
    const ownId = d.id === undefined || d.id === null ? null : String(d.id);
    out.push({
      object: r.object, ...(FLOW_KINDS[r.object] ? { kind: FLOW_KINDS[r.object] } : {}), id: ownId,
      user_id: typeof d.user_id === 'number' ? d.user_id : null, at, text: line(d),
    });
  }
  return out;
}

/** One short line of a flow item: its subject, title, name or text (HTML tags out), else the person or user it names. */
function line(d: Rec): string | null {
  const first = [d.subject, d.title, d.name, d.file_name, d.content].find((v) => typeof v === 'string' && v.trim() !== '') as string | undefined;
  if (first) {
    const t = first.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
    return t.length > 60 ? `${t.slice(0, 59)}…` : t;
  }
  if (typeof d.person_id === 'number') return `person ${d.person_id}`;
  if (typeof d.user_id === 'number') return `user ${d.user_id}`;
  return null;
}
