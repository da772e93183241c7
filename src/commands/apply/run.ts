import type { UnknownUsers } from '../../apply-engine/config/session.js';
import type { Context } from '../../core/context.js';
import { executePlan } from '../../apply-engine/execute.js';
import { WriteRecorder } from '../../automation/record-write.js';
import { budgetNotice } from '../../automation/budget-notice.js';
import type { Result } from '../../apply-engine/result.js';
import { defaultStatePath, expandFixtureArgs } from '../../apply-engine/files.js';
import { readFixtures } from '../../apply-engine/parse.js';
import { makePlan } from '../../apply-engine/plan.js';
import { PLAN_COLUMNS, planJson, planLine, planRow, planSummary, RESULT_COLUMNS, resultLine, resultRow, resultsJson, resultSummary, widthsOf } from '../../apply-engine/report.js';
import { UsageError } from '../../core/errors.js';
import { reportWriter } from '../../output/report.js';
import { lockState, readState } from '../../apply-engine/state.js';

export interface ApplyOptions {
  files: string[];
  state?: string;
  dryRun: boolean;
  /** true: fixtures' --prune; kind names: configuration's --prune <kinds>. */
  prune: boolean | string[];
  plan?: string;
  /** Loading into a sandbox only: users the files name that it lacks stand for its admin (sandbox start --from). */
  unknownUsers?: UnknownUsers;
}

/**
 * Reads and checks everything first (files, references, env, every spec), then sends. A problem
 * found before sending exits 2 with nothing sent; the dry run stops after printing the plan.
 */
export async function runApply(ctx: Context, o: ApplyOptions): Promise<void> {
  if (o.plan && o.files.length) throw new UsageError('--plan: the saved plan names its files; give --plan or -f, not both');
  const args = o.plan ? (await import('../../apply-engine/config/session.js')).readSavedPlan(o.plan).files.map((f) => f.path) : o.files;
  const files = expandFixtureArgs(args);
  const { records, issues } = readFixtures(files);
  const config = records.filter((r) => r.config);
  if (config.length || o.plan) {
    const fixture = records.find((r) => !r.config);
    if (fixture) throw new UsageError(`${fixture.file}: a fixture file (no \`config:\`) cannot be applied with configuration files (${config[0]?.file ?? 'the saved plan'}); apply them in separate runs`);
    if (o.state) throw new UsageError('--state: configuration files have no state file (they are matched with the account by natural key)');
    if (o.prune === true) throw new UsageError('--prune: name the kinds to delete for configuration files, e.g. --prune webhook,lead-label (or all)');
    const { applyConfig } = await import('./config.js');
    await applyConfig(ctx, { files, records, issues, prune: o.prune || [], dryRun: o.dryRun, plan: o.plan, ...(o.unknownUsers ? { unknownUsers: o.unknownUsers } : {}) });
    return;
  }
  if (Array.isArray(o.prune)) throw new UsageError('--prune: fixture files take --prune alone (records an earlier apply created); kinds are for configuration files');
  const prune = o.prune;
  const statePath = o.state ?? defaultStatePath(args[0]!);
  // Human lines are kept per row object: the writer asks for a row's line when the format is the report.
  const lines = new WeakMap<object, string>();
  const line = (row: object) => lines.get(row)!;

  if (o.dryRun) {
    const plan = makePlan(records, readState(statePath), { env: ctx.env, prune, issues });
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
    // ${user:<email>} resolves through the account's users (read only when a record uses it).
    const users = await (await import('../../apply-engine/config/session.js')).usersFor(ctx, records, undefined, o.unknownUsers);
    const plan = makePlan(records, state, { env: ctx.env, prune, issues, ...(users ? { users } : {}) });
    // What the state calls unchanged is checked against the account: a hand edit is drift, sent back.
    const drift = plan.actions.some((a) => a.type === 'unchanged' && a.kind.get) ? await (await import('../../apply-engine/drift.js')).checkDrift(plan, state, ctx) : { reads: 0, cost: 0 };
    const w = widthsOf(plan.actions);
    const results: Result[] = [];
    const out = reportWriter(ctx, { columns: RESULT_COLUMNS, line });
    const needsService = plan.actions.some((a) => a.type !== 'unchanged' && a.type !== 'keep');
    const http = needsService ? await ctx.http() : (undefined as never);
    if (needsService) budgetNotice(ctx, http, { tokens: plan.cost, atLeast: plan.costUnstated, continueWith: 'run the same apply again (what was applied is in the state file)' });
    // Each write is an item of one run (kind apply): `crmctl undo` takes the whole apply back.
    const recorder = new WriteRecorder(ctx, { kind: 'apply', describe: args.join(' '), input: { files: args, state: statePath }, header: { state: statePath } });
    try {
      await executePlan(plan, {
        http,
        reader: ctx,
        state,
        statePath,
        env: ctx.env,
        ...(users ? { users } : {}),
        send: recorder.send,
        report: async (r) => {
          results.push(r);
          const row = resultRow(r);
          lines.set(row, resultLine(r, w));
          await out.row(row);
        },
      });
    } catch (err) {
      await recorder.end('', err);
      throw err;
    }
    await recorder.end(resultSummary(results, statePath).split('\n')[0]!);
    const checked = drift.reads ? `\nChecked ${drift.reads} unchanged record${drift.reads === 1 ? '' : 's'} against the account (cost ${drift.cost}).` : '';
    await out.end({ text: `${resultSummary(results, statePath)}${checked}`, json: { ...(resultsJson(results, statePath) as object), read_cost: drift.cost } });
  } finally {
    unlock();
  }
}
