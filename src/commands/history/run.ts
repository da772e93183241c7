import { dealOps } from '../../api/operations/deals.js';
import { organizationOps } from '../../api/operations/organizations.js';
import { personOps } from '../../api/operations/persons.js';
import { budgetNotice } from '../../automation/budget-notice.js';
import { localWrites } from '../../automation/history-local.js';
import { mergeHistory } from '../../automation/history-merge.js';
import { serviceChanges } from '../../automation/history-read.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { renderRecords } from '../../output/render.js';
import { accountOf } from '../../runs/account.js';
import { HISTORY_COLUMNS, HISTORY_FIELDS, HISTORY_KINDS, NOUN, type HistoryKind } from './views.js';

const CHANGELOG = { deals: dealOps.changelog, persons: personOps.changelog, organizations: organizationOps.changelog };

const isKind = (k: string): k is HistoryKind => (HISTORY_KINDS as readonly string[]).includes(k);

export async function runHistory(ctx: Context, kind: string, id: string): Promise<void> {
  if (!isKind(kind)) throw new UsageError(`<kind>: must be one of ${HISTORY_KINDS.join(', ')} (got ${JSON.stringify(kind)})`);
  const op = CHANGELOG[kind];
  const http = await ctx.http();
  const before = http.governor.stats.acquired;
  ctx.info(`history reads: the changelog of ${NOUN[kind]} ${id} (GET ${op.path.replace('{id}', id)}, v1 only; ${op.cost} tokens a page of ${op.maxLimit ?? 500})`);
  budgetNotice(ctx, http, { tokens: op.cost ?? 20, atLeast: true, continueWith: 'run it again' });
  const service = await serviceChanges(ctx, op, id);
  const rows = mergeHistory(service, localWrites(ctx.env, await accountOf(ctx), kind, id));
  await renderRecords(ctx, rows, { columns: HISTORY_COLUMNS, fields: HISTORY_FIELDS });
  const ours = rows.filter((r) => r.by === 'crmctl').length;
  ctx.info(`history of ${NOUN[kind]} ${id}: ${rows.length} change${rows.length === 1 ? '' : 's'}, ${ours} by crmctl; ${http.governor.stats.acquired - before} tokens spent.`);
}
