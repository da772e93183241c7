import { dealOps } from '../../api/operations/deals.js';
import { organizationOps } from '../../api/operations/organizations.js';
import { personOps } from '../../api/operations/persons.js';
import { budgetNotice } from '../../automation/budget-notice.js';
import { localRecord } from '../../automation/history-local.js';
import { mergeHistory } from '../../automation/history-merge.js';
import { flowEvents, serviceChanges } from '../../automation/history-read.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { renderRecords } from '../../output/render.js';
import { accountOf } from '../../runs/account.js';
import { HISTORY_COLUMNS, HISTORY_FIELDS, HISTORY_KINDS, NOUN, type HistoryKind } from './views.js';

const OPS = { deals: dealOps, persons: personOps, organizations: organizationOps };

const isKind = (k: string): k is HistoryKind => (HISTORY_KINDS as readonly string[]).includes(k);

export async function runHistory(ctx: Context, kind: string, id: string, flags: { withFlow: boolean }): Promise<void> {
  if (!isKind(kind)) throw new UsageError(`<kind>: must be one of ${HISTORY_KINDS.join(', ')} (got ${JSON.stringify(kind)})`);
  const { changelog: op, flow } = OPS[kind];
  const http = await ctx.http();
  const before = http.governor.stats.acquired;
  const reads = [`the changelog of ${NOUN[kind]} ${id} (GET ${op.path.replace('{id}', id)}, v1 only; ${op.cost} tokens a page of ${op.maxLimit ?? 500})`];
  if (flags.withFlow) reads.push(`its flow (GET ${flow.path.replace('{id}', id)}, v1 only; ${flow.cost} tokens a page)`);
  ctx.info(`history reads: ${reads.join('; ')}`);
  budgetNotice(ctx, http, { tokens: (op.cost ?? 20) + (flags.withFlow ? (flow.cost ?? 40) : 0), atLeast: true, continueWith: 'run it again' });
  const service = await serviceChanges(ctx, op, id);
  const events = flags.withFlow ? await flowEvents(ctx, flow, id) : [];
  const local = localRecord(ctx.env, await accountOf(ctx));
  // A note, activity or file a run created on this record is crmctl's: the run's create of that record.
  const made = events.map((event) => ({ event, made: event.kind && event.id ? local.writesTo(event.kind, event.id).find((w) => w.op === 'create') : undefined }));
  const rows = mergeHistory(service, local.writesTo(kind, id), made);
  await renderRecords(ctx, rows, { columns: HISTORY_COLUMNS, fields: HISTORY_FIELDS });
  const ours = rows.filter((r) => r.by === 'crmctl').length;
  ctx.info(`history of ${NOUN[kind]} ${id}: ${rows.length} change${rows.length === 1 ? '' : 's'}, ${ours} by crmctl; ${http.governor.stats.acquired - before} tokens spent.`);
}
