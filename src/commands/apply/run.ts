import type { Context } from '../../core/context.js';
import { executePlan, type Result } from '../../apply-engine/execute.js';
import { defaultStatePath, expandFixtureArgs } from '../../apply-engine/files.js';
import { readFixtures } from '../../apply-engine/parse.js';
import { makePlan } from '../../apply-engine/plan.js';
import { planJson, planLine, planSummary, resultLine, resultsJson, resultSummary, widthsOf } from '../../apply-engine/report.js';
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
  const json = ctx.globals.output === 'json';
  const out = (s: string) => ctx.io.stdout.write(`${s}\n`);

  if (o.dryRun) {
    const plan = makePlan(records, readState(statePath), { env: ctx.env, prune: o.prune, issues });
    if (json) {
      out(JSON.stringify(planJson(plan, statePath), null, 2));
      return;
    }
    const w = widthsOf(plan.actions);
    for (const a of plan.actions) out(planLine(a, w));
    out(planSummary(plan));
    out('Dry run: nothing was sent.');
    return;
  }

  const unlock = lockState(statePath);
  try {
    const state = readState(statePath);
    const plan = makePlan(records, state, { env: ctx.env, prune: o.prune, issues });
    const w = widthsOf(plan.actions);
    const results: Result[] = [];
    const needsService = plan.actions.some((a) => a.type !== 'unchanged' && a.type !== 'keep');
    const http = needsService ? await ctx.http() : (undefined as never);
    await executePlan(plan, {
      http,
      state,
      statePath,
      env: ctx.env,
      report: (r) => {
        results.push(r);
        if (!json) out(resultLine(r, w));
      },
    });
    if (json) out(JSON.stringify(resultsJson(results, statePath), null, 2));
    else out(resultSummary(results, statePath));
  } finally {
    unlock();
  }
}
