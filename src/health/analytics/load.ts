import type { Reader } from '../../api/entry-types.js';
import { readAll } from '../../entry/prepare.js';
import { ValidationError } from '../../core/errors.js';
import { DAY_MS, dayOf, msOf, parseDay } from '../dates.js';
import type { DealRecord, PipelineRecord, StageRecord } from '../types.js';
import { checkRatesCover, parseRates, type Conversion } from './money.js';

/**
 * The one read of a pipeline the analytics work from: the pipeline (by name or id), its stages in
 * order, and every deal of it (open, won and lost; one paged read). The period is [from, to] by date:
 * `to` is --as-of (default today on the service's clock), `from` is --from (default: a period of 90
 * days ending on `to`, `to` included).
 */

export interface AnalyticsOptions {
  pipeline?: string;
  asOf?: string;
  from?: string;
  /** Days of the period when --from is not given (the analytics: 90; the digest: 7, the week). */
  periodDays?: number;
  convertTo?: string;
  rates?: readonly string[];
}

export interface PipelineData {
  pipeline: PipelineRecord;
  /** Live stages of the pipeline, by order_nr. */
  stages: StageRecord[];
  deals: DealRecord[];
  /** The period, inclusive, `YYYY-MM-DD`: `to` is today for ages. */
  from: string;
  to: string;
  conv: Conversion | undefined;
}

export const DEFAULT_PERIOD_DAYS = 90;

export async function loadPipelineData(reader: Reader, o: AnalyticsOptions): Promise<PipelineData> {
  const asOf = o.asOf === undefined ? undefined : parseDay(o.asOf, '--as-of');
  const from = o.from === undefined ? undefined : parseDay(o.from, '--from');
  if (o.rates?.length && !o.convertTo) throw new ValidationError([{ field: '--rate', rule: 'needs --convert-to (the currency the rates convert into)' }]);
  if (asOf && from && from > asOf) throw new ValidationError([{ field: '--from', rule: `must be on or before the end of the period, ${asOf} (--as-of)` }]);
  const [{ pipelineOps }, { stageOps }, { dealOps }] = await Promise.all([
    import('../../api/operations/pipelines.js'),
    import('../../api/operations/stages.js'),
    import('../../api/operations/deals.js'),
  ]);
  const pipelines: PipelineRecord[] = [];
  for await (const p of readAll(reader, pipelineOps.list, {})) if (!(p as PipelineRecord).is_deleted) pipelines.push(p as PipelineRecord);
  const pipeline = choosePipeline(pipelines, o.pipeline);
  let conv: Conversion | undefined;
  if (o.convertTo) {
    const { currencyOps } = await import('../../api/operations/currencies.js');
    const codes: string[] = [];
    for await (const c of readAll(reader, currencyOps.list, {})) if ((c as { active_flag?: boolean }).active_flag !== false) codes.push(String((c as { code: string }).code));
    conv = parseRates(o.convertTo, o.rates ?? [], codes);
  }
  const stages: StageRecord[] = [];
  for await (const s of readAll(reader, stageOps.list, { query: { pipeline_id: pipeline.id } })) if (!(s as StageRecord).is_deleted) stages.push(s as StageRecord);
  stages.sort((a, b) => a.order_nr - b.order_nr || a.id - b.id);
  const deals: DealRecord[] = [];
  for await (const d of readAll(reader, dealOps.list, { query: { pipeline_id: pipeline.id } })) deals.push(d as DealRecord);
  const to = asOf ?? dayOf((await reader.http()).serviceNow());
  // As of `to`: deals added later did not exist yet (their status is today's either way: no history is read here).
  const known = deals.filter((x) => x.add_time.slice(0, 10) <= to);
  if (conv) checkRatesCover(conv, known);
  const start = from ?? dayOf(msOf(to) - ((o.periodDays ?? DEFAULT_PERIOD_DAYS) - 1) * DAY_MS);
  if (start > to) throw new ValidationError([{ field: '--from', rule: `must be on or before the end of the period, ${to} (--as-of)` }]);
  return { pipeline, stages, deals: known, from: start, to, conv };
}

/** --pipeline by id or name (case aside); without it, the account's only pipeline. */
export function choosePipeline(pipelines: readonly PipelineRecord[], wanted: string | undefined): PipelineRecord {
  const names = pipelines.map((p) => `${p.name} (${p.id})`).join(', ');
  if (wanted === undefined) {
    if (pipelines.length === 1) return pipelines[0]!;
    throw new ValidationError([{ field: '--pipeline', rule: `is required: the account has ${pipelines.length} pipelines (${names}); give a name or an id` }]);
  }
  const w = wanted.trim();
  const hit = /^\d+$/.test(w) ? pipelines.find((p) => p.id === Number(w)) : pipelines.find((p) => p.name.trim().toLowerCase() === w.toLowerCase());
  if (!hit) throw new ValidationError([{ field: '--pipeline', rule: `no pipeline ${JSON.stringify(wanted)} in the account; pipelines: ${names}` }]);
  return hit;
}

/** The users' names by id (one read of the user list, cost 20): the scorecard names owners. */
export async function loadUserNames(reader: Reader): Promise<Map<number, string>> {
  const { userOps } = await import('../../api/operations/users.js');
  const out = new Map<number, string>();
  for await (const u of readAll(reader, userOps.list, {})) out.set((u as { id: number }).id, String((u as { name?: string }).name ?? ''));
  return out;
}

/** Field changes of one deal, oldest first (`GET /api/v1/deals/{id}/changelog`, cost 20 a page). */
export interface FieldChange {
  field_key: string;
  old_value: string | null;
  new_value: string | null;
  time: string;
}

export async function loadChangelogs(reader: Reader, ids: readonly number[]): Promise<Map<number, FieldChange[]>> {
  const { dealOps } = await import('../../api/operations/deals.js');
  const out = new Map<number, FieldChange[]>();
  for (const id of ids) {
    const list: FieldChange[] = [];
    for await (const c of readAll(reader, dealOps.changelog, { params: { id } })) list.push(c as FieldChange);
    list.sort((a, b) => msOf(a.time) - msOf(b.time));
    out.set(id, list);
  }
  return out;
}
