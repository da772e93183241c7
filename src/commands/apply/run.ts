import type { Context } from '../../core/context.js';
import { executePlan } from '../../apply-engine/execute.js';
import { budgetNotice } from '../../automation/budget-notice.js';
import type { Result } from '../../apply-engine/result.js';
import { defaultStatePath, expandFixtureArgs } from '../../apply-engine/files.js';
import { readFixtures } from '../../apply-engine/parse.js';
import { makePlan } from '../../apply-engine/plan.js';
import { PLAN_COLUMNS, planJson, planLine, planRow, planSummary, RESULT_COLUMNS, resultLine, resultRow, resultsJson, resultSummary, widthsOf } from '../../apply-engine/report.js';
import { reportWriter } from '../../output/report.js';
import { lockState, readState } from '../../apply-engine/state.js';

export interface ApplyOptions {
  files: string[];
  state?: string;
  dryRun: boolean;
  prune: boolean;
}

/**
 * Reads and checks everything first (files, references, env, every spec), then sends. A problem
 * found before sending exits 2 with nothing sent; the dry run stops after printing the plan.
 */
export async function runApply(ctx: Context, o: ApplyOptions): Promise<void> {
  const files = expandFixtureArgs(o.files);
  const statePath = o.state ?? defaultStatePath(o.files[0]!);
  const { records, issues } = readFixtures(files);
  // Human lines are kept per row object: the writer asks for a row's line when the format is the report.
  const lines = new WeakMap<object, string>();
  const line = (row: object) => lines.get(row)!;

  if (o.dryRun) {
    const plan = makePlan(records, readState(statePath), { env: ctx.env, prune: o.prune, issues });
    const out = reportWriter(ctx, { columns: PLAN_COLUMNS, line });
    const w = widthsOf(plan.actions);
    for (const a of plan.actions) {
      const row = planRow(a);
      lines.set(row, planLine(a, w));
      await out.row(row);
    }
    await out.end({ text: `${planSummary(plan)}\nDry run: nothing was sent.`, json: planJson(plan, statePath) });
    return;
  }

  const unlock = await lockState(statePath);
  try {
    const state = readState(statePath);
    const plan = makePlan(records, state, { env: ctx.env, prune: o.prune, issues });
    const w = widthsOf(plan.actions);
    const results: Result[] = [];
    const out = reportWriter(ctx, { columns: RESULT_COLUMNS, line });
    const needsService = plan.actions.some((a) => a.type !== 'unchanged' && a.type !== 'keep');
    const http = needsService ? await ctx.http() : (undefined as never);
    if (needsService) budgetNotice(ctx, http, { tokens: plan.cost, atLeast: plan.costUnstated, continueWith: 'run the same apply again (what was applied is in the state file)' });
    await executePlan(plan, {
      http,
      reader: ctx,
      state,
      statePath,
      env: ctx.env,
      report: async (r) => {
        results.push(r);
        const row = resultRow(r);
        lines.set(row, resultLine(r, w));
        await out.row(row);
      },
    });
    await out.end({ text: resultSummary(results, statePath), json: resultsJson(results, statePath) });
  } finally {
    unlock();
  }
}
