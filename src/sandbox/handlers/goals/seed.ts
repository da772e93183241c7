// Demo goals, plus the won deals and done activities of early 2025 that give them
// progress (the core demo seed has one won deal, in USD, and no done activity).
// Extra deals have no person or organization so other areas' demo data stays as it is.
import { hex40 } from '../../seed/index.js';
import type { SandboxState, SeedName } from '../../store/state.js';
import { goals, type Goal } from './model.js';

export const SEED_GOAL_IDS = {
  companyRevenue: hex40('goal:companyRevenue').slice(0, 32),
  adaActivities: hex40('goal:adaActivities').slice(0, 32),
  reggieStarted: hex40('goal:reggieStarted').slice(0, 32),
  samDemos: hex40('goal:samDemos').slice(0, 32),
  forecast: hex40('goal:forecast').slice(0, 32),
  ada2024: hex40('goal:ada2024').slice(0, 32),
};

function seedDealsAndActivities(state: SandboxState): void {
  const eur = (title: string, value: number, owner: number, stageId: number, added: string, won: string | null, expected: string) => {
    const stage = state.stages.get(stageId)!;
    state.deals.insert({
      title, owner_id: owner, creator_user_id: owner, person_id: null, org_id: null, pipeline_id: stage.pipeline_id, stage_id: stageId,
      value, currency: 'EUR', add_time: `${added}T09:00:00.000Z`, update_time: `${won ?? added}T15:00:00.000Z`, stage_change_time: `${added}T12:00:00.000Z`,
      is_deleted: false, is_archived: false, status: won ? 'won' : 'open', probability: null, lost_reason: null, visible_to: 3,
      close_time: won ? `${won}T15:00:00.000Z` : null, won_time: won ? `${won}T15:00:00.000Z` : null, lost_time: null,
      expected_close_date: expected, label_ids: [], origin: 'ManuallyCreated', origin_id: null, channel: null, channel_id: null,
      source_lead_id: null, custom_fields: {},
    }, { silent: true });
  };
  eur('Support renewal 2025', 9000, 1, 5, '2025-02-03', '2025-02-20', '2025-02-28');
  eur('Data migration project', 15000, 2, 4, '2025-02-10', '2025-03-14', '2025-03-31');
  eur('Partner referral bundle', 6000, 1, 8, '2025-03-01', '2025-03-25', '2025-03-31');
  eur('Regional expansion licence', 20000, 3, 3, '2025-03-05', null, '2025-05-30');

  const done = (subject: string, type: string, owner: number, at: string) => state.activities.insert({
    subject, type, owner_id: owner, deal_id: null, lead_id: null, person_id: null, org_id: null, due_date: at, due_time: null,
    done: true, marked_as_done_time: `${at}T16:00:00.000Z`, add_time: `${at}T08:00:00.000Z`, update_time: `${at}T16:00:00.000Z`, is_deleted: false,
  }, { silent: true });
  done('Quarterly review call', 'call', 1, '2025-02-05');
  done('Pricing workshop', 'meeting', 1, '2025-02-12');
  done('Contract sent', 'email', 1, '2025-02-14');
  done('Kick-off call', 'call', 2, '2025-03-03');
}

export function seedGoals(state: SandboxState, name: SeedName): void {
  goals(state);
  if (name !== 'demo') return;
  seedDealsAndActivities(state);
  const eurId = state.currencies.find((c) => c.code === 'EUR')!.id;
  const g = (id: string, rest: Omit<Goal, 'id' | 'report_ids' | 'is_active'> & { is_active?: boolean }) =>
    goals(state).insert({ id, is_active: true, report_ids: [hex40(`report:${id}`).slice(0, 32)], ...rest }, { silent: true });
  g(SEED_GOAL_IDS.companyRevenue, { owner_id: 1, title: 'Company revenue 2025', assignee: { id: state.company.id, type: 'company' },
    type: { name: 'deals_won', params: { pipeline_id: null } }, expected_outcome: { target: 100000, tracking_metric: 'sum', currency_id: eurId },
    duration: { start: '2025-01-01', end: '2025-12-31' }, interval: 'quarterly' });
  g(SEED_GOAL_IDS.adaActivities, { owner_id: 1, title: 'Ada: calls and meetings', assignee: { id: 1, type: 'person' },
    type: { name: 'activities_completed', params: { pipeline_id: null, activity_type_id: [1, 2] } }, expected_outcome: { target: 20, tracking_metric: 'quantity' },
    duration: { start: '2025-01-01', end: null }, interval: 'monthly' });
  g(SEED_GOAL_IDS.reggieStarted, { owner_id: 1, title: 'Reggie: new deals in H1', assignee: { id: 2, type: 'person' },
    type: { name: 'deals_started', params: { pipeline_id: [1] } }, expected_outcome: { target: 10, tracking_metric: 'quantity' },
    duration: { start: '2025-01-01', end: '2025-06-30' }, interval: 'monthly' });
  g(SEED_GOAL_IDS.samDemos, { owner_id: 1, title: 'Sam: demos scheduled', assignee: { id: 3, type: 'person' },
    type: { name: 'deals_progressed', params: { pipeline_id: [1], stage_id: 3 } }, expected_outcome: { target: 5, tracking_metric: 'quantity' },
    duration: { start: '2025-01-01', end: '2025-12-31' }, interval: 'quarterly' });
  g(SEED_GOAL_IDS.forecast, { owner_id: 1, title: 'Weighted forecast 2025', assignee: { id: state.company.id, type: 'company' },
    type: { name: 'revenue_forecast', params: { pipeline_id: null } }, expected_outcome: { target: 150000, tracking_metric: 'sum', currency_id: eurId },
    duration: { start: '2025-01-01', end: '2025-12-31' }, interval: 'yearly' });
  g(SEED_GOAL_IDS.ada2024, { owner_id: 1, title: 'Ada: deals won 2024', assignee: { id: 1, type: 'person' }, is_active: false,
    type: { name: 'deals_won', params: { pipeline_id: null } }, expected_outcome: { target: 12, tracking_metric: 'quantity' },
    duration: { start: '2024-01-01', end: '2024-12-31' }, interval: 'yearly' });
}
