/**
 * `crmctl dedupe` on a terminal without --keep: each duplicate group shown side by side (the fields
 * that differ), then a person picks the record kept, or skips the group. The most complete record is
 * the default (Enter keeps what --keep most-complete would keep). Off a terminal the command asks for
 * --keep instead (src/commands/dedupe), so this never runs there.
 */
import type { Context } from '../core/context.js';
import type { Choice } from '../core/prompter.js';
import { filledFields, groupLines, type DedupePlan } from '../health/dedupe-plan.js';

/** A member as the choice names it. */
export interface SurvivorCandidate {
  id: number;
  name?: unknown;
  add_time?: unknown;
  [k: string]: unknown;
}

/** The choice that skips a group: nothing of it is merged. */
const SKIP = -1;

/**
 * Asks, group by group, which record is kept. `plan` was made with the most-complete rule, so its
 * survivor is the default. Returns one pick per group: the id kept, or null for a skipped group.
 */
export async function pickSurvivors(ctx: Context, plan: DedupePlan, records: ReadonlyMap<number, SurvivorCandidate>): Promise<Array<number | null>> {
  const p = await ctx.prompter();
  const picks: Array<number | null> = [];
  for (const [n, g] of plan.groups.entries()) {
    ctx.io.stderr.write(`${groupLines(plan.kind, g, n, { keep: false }).join('\n')}\n`);
    const choices: Choice<number>[] = g.ids.map((id) => {
      const r = records.get(id);
      const added = typeof r?.add_time === 'string' ? `, added ${r.add_time.slice(0, 10)}` : '';
      const filled = r ? `, ${filledFields(r as never)} fields filled` : '';
      return { name: `keep ${id} ${String(r?.name ?? '')}${added}${filled}${id === g.keep ? ' (most complete)' : ''}`.replace(/\s+,/, ','), value: id };
    });
    choices.push({ name: 'skip this group (merge nothing)', value: SKIP });
    const picked = await p.select<number>({ message: `Group ${n + 1} of ${plan.groups.length}: which ${plan.kind === 'persons' ? 'person' : 'organization'} is kept (the others are merged into it)?`, flag: '--keep', choices, default: g.keep });
    picks.push(picked === SKIP ? null : picked);
  }
  return picks;
}
