// The goal record (the vendor's documents; ids are hex strings) and the enums of the
// interface's Goal table.
import type { SandboxState } from '../../store/state.js';

export const GOAL_TYPES = ['deals_won', 'deals_progressed', 'activities_completed', 'activities_added', 'deals_started', 'revenue_forecast'] as const;
/** The find filter lists these five (interface, Goals find); revenue_forecast is not among them. */
export const FIND_GOAL_TYPES = ['deals_won', 'deals_progressed', 'activities_completed', 'activities_added', 'deals_started'] as const;
export const ACTIVITY_GOAL_TYPES = ['activities_completed', 'activities_added'];
export const ASSIGNEE_TYPES = ['person', 'company', 'team'] as const;
export const METRICS = ['quantity', 'sum'] as const;
export const INTERVALS = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;

export type GoalType = (typeof GOAL_TYPES)[number];

export interface GoalParams {
  /** null = all pipelines. */
  pipeline_id: number[] | null;
  /** Only for deals_progressed. */
  stage_id?: number;
  /** Only for activities_*; null = all activity types. */
  activity_type_id?: number[] | null;
}

export interface Goal {
  id: string;
  owner_id: number;
  title: string;
  type: { name: GoalType; params: GoalParams };
  assignee: { id: number; type: (typeof ASSIGNEE_TYPES)[number] };
  interval: (typeof INTERVALS)[number];
  duration: { start: string; end: string | null };
  expected_outcome: { target: number; tracking_metric: (typeof METRICS)[number]; currency_id?: number };
  is_active: boolean;
  report_ids: string[];
  [k: string]: unknown;
}

export const goals = (state: SandboxState) => state.collection<Goal>('goals', { idKind: 'given' });

/** Members of a legacy team, when the teams area keeps a collection the sandbox can read. */
export function teamMembers(state: SandboxState, teamId: number): number[] | undefined {
  for (const name of ['legacyTeams', 'teams']) {
    if (!state.collectionNames().includes(name)) continue;
    const team = state.collection(name).get(teamId) as { users?: unknown } | undefined;
    if (team) return Array.isArray(team.users) ? team.users.filter((u): u is number => typeof u === 'number') : [];
  }
  return undefined;
}

/** Whether team ids can be checked at all (the teams area may not keep a collection). */
export function teamsKnown(state: SandboxState): boolean {
  return ['legacyTeams', 'teams'].some((n) => state.collectionNames().includes(n));
}
