// Goal results computed from the sandbox's deals and activities for a period
// (dates inclusive, compared on the YYYY-MM-DD part of each timestamp):
// - deals_won: won deals whose won_time is in the period;
// - deals_started: deals added in the period;
// - deals_progressed: deals now in the goal's stage that entered it (stage_change_time) in the period
//   (the sandbox keeps no stage history, so deals that moved on are not counted);
// - activities_completed: done activities whose done time (marked_as_done_time, else update_time) is in the period;
// - activities_added: activities added in the period;
// - revenue_forecast: open deals expected to close in the period, value weighted by the deal's probability
//   (else its stage's deal_probability) — the weighted forecast, as the service's forecast view shows it.
// Only deals/activities owned by the assignee count (a person: that user; a team: its members; the company: everyone),
// deals only in the goal's pipelines (null = all). `sum` adds deal values in the goal's currency
// (currency_id, default the company currency); deals in other currencies are not converted.
import type { SandboxState } from '../../store/state.js';
import type { Goal } from './model.js';
import { teamMembers } from './model.js';

const day = (t: string | null | undefined) => (t ? t.slice(0, 10) : null);
const within = (t: string | null | undefined, start: string, end: string) => {
  const d = day(t);
  return d !== null && d >= start && d <= end;
};

function owners(state: SandboxState, goal: Goal): (id: number) => boolean {
  if (goal.assignee.type === 'company') return () => true;
  if (goal.assignee.type === 'person') return (id) => id === goal.assignee.id;
  const members = new Set(teamMembers(state, goal.assignee.id) ?? []);
  return (id) => members.has(id);
}

export function computeProgress(state: SandboxState, goal: Goal, start: string, end: string): number {
  const owned = owners(state, goal);
  const { name, params } = goal.type;
  const inPipelines = (pid: number) => !params.pipeline_id || params.pipeline_id.includes(pid);

  if (name === 'activities_completed' || name === 'activities_added') {
    const types = params.activity_type_id ? new Set(params.activity_type_id.map((id) => state.activityTypes.getAny(id)?.key_string)) : null;
    return state.activities.filter((a) => owned(a.owner_id) && (!types || types.has(a.type)) && (name === 'activities_added'
      ? within(a.add_time, start, end)
      : a.done && within((a.marked_as_done_time as string | undefined) ?? a.update_time, start, end))).length;
  }

  const deals = state.deals.filter((d) => owned(d.owner_id) && inPipelines(d.pipeline_id) && (
    name === 'deals_won' ? d.status === 'won' && within(d.won_time, start, end)
      : name === 'deals_started' ? within(d.add_time, start, end)
        : name === 'deals_progressed' ? d.stage_id === params.stage_id && within(d.stage_change_time, start, end)
          : d.status === 'open' && within(d.expected_close_date, start, end)));

  const weight = (d: (typeof deals)[number]) => {
    if (name !== 'revenue_forecast') return 1;
    const p = d.probability ?? state.stages.getAny(d.stage_id)?.deal_probability ?? 100;
    return p / 100;
  };
  if (goal.expected_outcome.tracking_metric === 'quantity') return deals.length;
  const code = state.currencies.getAny(goal.expected_outcome.currency_id ?? -1)?.code ?? state.company.default_currency;
  return Math.round(deals.filter((d) => d.currency === code).reduce((sum, d) => sum + d.value * weight(d), 0));
}
