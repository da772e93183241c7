import type { Operation } from '../api/operation.js';
import type { DailyBudget } from '../core/http-port.js';
import type { FieldChange } from './bulk-update-changes.js';
import { safeText } from '../output/safe-text.js';
import { costText } from './budget-notice.js';

/** What a bulk update will do, before it does it: printed on stderr, and as the document of --dry-run. */
export interface BulkPlan {
  area: string;
  selection: string;
  selected: number;
  to_update: number;
  unchanged: number;
  not_found: number;
  done_earlier: number;
  fields: FieldChange[];
  update: Operation;
  /** Cost units the reads before the plan took (field names, the selection): already spent when it is shown. */
  read_cost: number;
  /** The daily budget as the reads before the plan left it (undefined when no answer carried it). */
  daily: Pick<DailyBudget, 'limit' | 'remaining'> | undefined;
  /** Now on the service's clock: when the budget resets, for a run that will not fit. */
  service_now: number;
  /** How a temporary filter was used to select (--where): created and deleted before the plan. */
  temporary_filter?: string;
}

const n = (x: number) => x.toLocaleString('en-US');

export function planCost(p: BulkPlan): number {
  return (p.update.cost ?? 1) * p.to_update;
}

export function planText(p: BulkPlan): string {
  const lines = [`Bulk update of ${p.area} selected by ${p.selection}: ${n(p.selected)} record${p.selected === 1 ? '' : 's'}`];
  for (const f of p.fields) {
    const from = [...f.from].sort((a, b) => b[1] - a[1]);
    const shown = from.slice(0, 3).map(([v, c]) => `${safeText(String(v))}: ${n(c)}`).join(', ') + (from.length > 3 ? `, ${from.length - 3} other values` : '');
    // Values come from records (anyone who can edit one chooses them): shown safe, never raw.
    lines.push(`  ${safeText(f.field)} → ${safeText(String(f.to))}: ${n(f.changes)} change${f.changes === 1 ? '' : 's'}${f.changes ? ` (from ${shown})` : ''}, ${n(f.already)} already at the value`);
  }
  const parts = [`${n(p.to_update)} to update`, `${n(p.unchanged)} unchanged (not written)`];
  if (p.not_found) parts.push(`${n(p.not_found)} not found`);
  if (p.done_earlier) parts.push(`${n(p.done_earlier)} settled by an earlier run`);
  lines.push(`  ${parts.join(', ')}`);
  if (p.temporary_filter) lines.push(`  ${p.temporary_filter}`);
  const per = p.update.cost ?? 1;
  const cost = planCost(p);
  // The cost against what is left today when the reads' answers said; the figure alone when none did.
  const head = p.daily ? costText({ tokens: cost, atLeast: p.update.cost == null }, p.daily, p.service_now) : `cost: about ${n(cost)} tokens`;
  lines.push(`  ${head}`);
  lines.push(`    ${n(p.to_update)} × ${per} (${p.update.method} ${p.update.path}), plus ${n(p.read_cost)} already spent on reads${p.temporary_filter ? ' and the temporary filter' : ''}`);
  return lines.join('\n');
}

export function planJson(p: BulkPlan): Record<string, unknown> {
  return {
    area: p.area,
    selection: p.selection,
    selected: p.selected,
    to_update: p.to_update,
    unchanged: p.unchanged,
    not_found: p.not_found,
    done_earlier: p.done_earlier,
    fields: p.fields.map((f) => ({ field: f.field, to: f.to, changes: f.changes, already: f.already, from: Object.fromEntries(f.from) })),
    operation: `${p.update.method} ${p.update.path}`,
    cost_per_update: p.update.cost,
    update_cost: planCost(p),
    read_cost: p.read_cost,
    temporary_filter: p.temporary_filter ?? null,
    daily_budget_left: p.daily?.remaining ?? null,
    daily_budget_limit: p.daily?.limit ?? null,
    fits_daily_budget: p.daily ? planCost(p) <= p.daily.remaining : null,
  };
}
