// Seed of the projects area. Both seeds get the configuration (two boards with phases,
// project custom-field metadata, templates) so a project can be created at once; the demo
// seed adds projects in every status, one archived, with groups, tasks, activities, plan,
// notes, changelog entries and a saved project filter.
import { simpleConditions } from '../../engine/filter-eval.js';
import { PROJECT_FIELD_KEYS } from '../fields.js';
import type { Filter } from '../../store/records.js';
import type { SandboxState, SeedName } from '../../store/state.js';
import { applyTemplate, insertProjectActivity } from './template.js';
import { boards, changelog, groups, phases, plan, projects, tasks, templates, type Project } from './store.js';
import { v1Time } from '../../engine/time.js';

export { PROJECT_FIELD_KEYS } from '../fields.js';

const day = (d: number) => new Date(Date.UTC(2025, 1, 3 + d, 10, 0, 0)).toISOString();

export function seedProjects(state: SandboxState, name: SeedName): void {
  const t = day(0);
  const boardSpec: [string, string[]][] = [
    ['Delivery', ['Kick-off', 'Planning', 'Implementation', 'Go-live']],
    ['Customer success', ['Onboarding', 'Adoption', 'Renewal prep']],
  ];
  boardSpec.forEach(([boardName, phaseNames], i) => {
    const b = boards(state).insert({ name: boardName, order_nr: i + 1, add_time: t, update_time: t });
    phaseNames.forEach((n, j) => {
      phases(state).insert({ name: n, board_id: b.id, order_nr: j + 1, add_time: t, update_time: t });
    });
  });

  templates(state).insert({
    title: 'Standard onboarding', description: 'Kick-off, configuration and training for a new customer',
    groups: ['Preparation', 'Rollout'],
    tasks: [
      { title: 'Collect admin contacts', group: 0, phase_order: 1 },
      { title: 'Configure account', group: 0, phase_order: 2 },
      { title: 'Run end-user training', group: 1, phase_order: 2 },
    ],
    activities: [{ subject: 'Kick-off call', type: 'call', group: 0, phase_order: 1, duration: '00:45' }],
  });
  templates(state).insert({
    title: 'Integration project', description: 'API integration with the customer ERP',
    groups: ['Discovery', 'Build', 'Launch'],
    tasks: [
      { title: 'Map ERP fields', group: 0, phase_order: 2 },
      { title: 'Build sync job', group: 1, phase_order: 3 },
      { title: 'Cut-over checklist', group: 2, phase_order: 4 },
    ],
    activities: [{ subject: 'Architecture review', type: 'meeting', group: 0, phase_order: 2, duration: '01:30' }],
  });

  if (name === 'demo') seedDemoProjects(state);
}

function seedDemoProjects(state: SandboxState): void {
  const K = PROJECT_FIELD_KEYS;
  const base = (title: string, d: number, over: Partial<Project>): Omit<Project, 'id'> => ({
    title, description: null, status: 'open', board_id: 1, phase_id: 1, owner_id: 1, start_date: null, end_date: null,
    deal_ids: [], person_ids: [], org_ids: [], label_ids: [], health_status: null, add_time: day(d), update_time: day(d + 1),
    status_change_time: day(d), archive_time: null, custom_fields: {}, ...over,
  });
  const acme = projects(state).insert(base('Acme licence rollout', 1, {
    description: 'Roll out the annual licence to 120 seats across two sites', phase_id: 3, deal_ids: [1], person_ids: [1], org_ids: [1],
    label_ids: [1], start_date: '2025-02-10', end_date: '2025-04-30', health_status: 1,
    custom_fields: { [K.budgetCode]: 'ACME-2025-01', [K.estimatedHours]: 120, [K.region]: 1, [K.deliverables]: [11, 12], [K.contractValue]: 24000, [`${K.contractValue}_currency`]: 'EUR' },
  }));
  const globex = projects(state).insert(base('Globex onboarding', 2, {
    description: 'Onboarding of the Riga analytics team', board_id: 2, phase_id: 5, owner_id: 2, deal_ids: [2], person_ids: [2, 9], org_ids: [2],
    start_date: '2025-02-17', custom_fields: { [K.region]: 1 },
  }));
  projects(state).insert(base('Initech support setup', 3, {
    description: 'Support desk and SLA configuration', status: 'completed', phase_id: 4, deal_ids: [3], person_ids: [3], org_ids: [3],
    start_date: '2025-01-06', end_date: '2025-02-14', health_status: 2, status_change_time: day(5),
    custom_fields: { [K.budgetCode]: 'INI-SUP-7', [K.goLive]: '2025-02-14' },
  }));
  projects(state).insert(base('Umbrella fleet pilot', 4, {
    description: 'Pilot of fleet tracking in the Stockholm depot', status: 'canceled', phase_id: 2, owner_id: 3, deal_ids: [4], person_ids: [4], org_ids: [4],
    custom_fields: { [K.region]: 1, [K.estimatedHours]: 40 },
  }));
  projects(state).insert(base('Stark reseller enablement', 5, {
    description: 'Enable the reseller sales team', board_id: 2, phase_id: 6, org_ids: [5], person_ids: [6], archive_time: day(8),
  }));
  projects(state).insert(base('Wayne POS pilot', 6, { status: 'deleted', person_ids: [5], org_ids: [6], deal_ids: [6], status_change_time: day(9) }));

  // Acme: hand-made groups, tasks and activities; Globex: built from the onboarding template.
  const g1 = groups(state).insert({ project_id: acme.id, name: 'Site A', order_nr: 1, active_flag: true });
  const g2 = groups(state).insert({ project_id: acme.id, name: 'Site B', order_nr: 2, active_flag: true });
  groups(state).insert({ project_id: acme.id, name: 'Old plan', order_nr: 3, active_flag: false });
  const task = (title: string, group: number, phase: number, assignee: number, done: 0 | 1, due: string) => {
    const tk = tasks(state).insert({
      title, project_id: acme.id, description: null, parent_task_id: null, assignee_id: assignee, assignee_ids: [assignee], done,
      due_date: due, creator_id: 1, add_time: v1Time(day(2)), update_time: v1Time(day(3)), marked_as_done_time: done ? v1Time(day(4)) : null,
    });
    plan(state).insert({ project_id: acme.id, item_type: 'task', item_id: tk.id, phase_id: phase, group_id: group });
  };
  task('Install licence server', g1.id, 3, 1, 1, '2025-02-20');
  task('Migrate user accounts', g1.id, 3, 2, 0, '2025-03-05');
  task('Train site B admins', g2.id, 4, 3, 0, '2025-04-10');
  const act = insertProjectActivity(state, acme.id, { subject: 'Weekly rollout sync', type: 'meeting', owner_id: 1, due_date: '2025-02-24', due_time: '09:30', duration: '00:30', location: 'Tallinn office' }, day(2), 1, true);
  plan(state).insert({ project_id: acme.id, item_type: 'activity', item_id: act.id, phase_id: 3, group_id: g1.id });
  insertProjectActivity(state, acme.id, { subject: 'Go-live call', type: 'call', owner_id: 2, due_date: '2025-04-30', due_time: '14:00', duration: '01:00' }, day(2), 1, true);
  applyTemplate(state, globex, 1, 2, day(2), true);

  state.notes.insert({
    content: '<p>Site B needs SSO before the training can start.</p>', user_id: 1, last_update_user_id: null, lead_id: null, deal_id: null,
    person_id: null, org_id: null, project_id: acme.id, task_id: null, add_time: v1Time(day(3)), update_time: v1Time(day(3)), active_flag: true,
    pinned_to_lead_flag: false, pinned_to_deal_flag: false, pinned_to_organization_flag: false, pinned_to_person_flag: false,
    pinned_to_project_flag: true, pinned_to_task_flag: false,
  }, { silent: true });

  const change = (projectId: number, d: number, old: Record<string, unknown>, neu: Record<string, unknown>, actor: number, source: string) =>
    changelog(state).insert({ project_id: projectId, time: day(d), actor_user_id: actor, change_source: source, change_source_user_agent: null, old_values: old, new_values: neu });
  change(acme.id, 1, {}, { title: 'Acme licence rollout', board_id: 1, phase_id: 1 }, 1, 'app');
  change(acme.id, 2, { phase_id: 1 }, { phase_id: 2 }, 1, 'app');
  change(acme.id, 3, { phase_id: 2, health_status: null }, { phase_id: 3, health_status: 1 }, 2, 'mobile');
  change(3, 5, { status: 'open' }, { status: 'completed' }, 1, 'app');

  const t = day(0);
  state.filters.insert({
    name: 'Projects owned by Ada', type: 'projects' as Filter['type'], user_id: 1, active_flag: true, add_time: t, update_time: t,
    conditions: simpleConditions('project', ['owner_id', '=', 1]),
  }, { silent: true });
}
