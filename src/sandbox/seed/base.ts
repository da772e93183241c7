// Account skeleton shared by every seed ('empty' included): company, users with
// API tokens, currencies, activity types, pipelines and stages and the default lead
// labels. Field metadata (incl. the marketing channels) is the fields area's seed.
// Everything is fixed so two seeded sandboxes look the same.
import { createHash } from 'node:crypto';
import type { SandboxState } from '../store/state.js';

export const SEED_TIME = '2025-01-06T09:00:00.000Z';

/** Deterministic 40-hex value, the length of the service's API tokens and custom field keys. */
export const hex40 = (label: string) => createHash('sha256').update(`crmctl-sandbox:${label}`).digest('hex').slice(0, 40);

/** Deterministic UUID-shaped ids for seeded UUID records. */
export const seedUuid = (label: string) => {
  const h = createHash('sha256').update(`crmctl-sandbox-uuid:${label}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** Custom deal field keys, exported so tests and other areas can refer to them. */
export const DEAL_FIELD_KEYS = {
  leadScore: hex40('dealField:leadScore'),
  budget: hex40('dealField:budget'),
  segment: hex40('dealField:segment'),
  notes: hex40('dealField:notes'),
  interests: hex40('dealField:interests'),
  renewal: hex40('dealField:renewal'),
  accountManager: hex40('dealField:accountManager'),
  partner: hex40('dealField:partner'),
  technicalContact: hex40('dealField:technicalContact'),
} as const;

/** Marketing channels configured for the company (options of the deal field `channel`). */
export const CHANNELS = [
  { id: 1, label: 'Organic search' },
  { id: 2, label: 'Paid search' },
  { id: 3, label: 'Social media' },
  { id: 4, label: 'Email marketing' },
  { id: 5, label: 'Referral' },
  { id: 6, label: 'Events' },
];

export const USERS = [
  { id: 1, name: 'Ada Admin', email: 'ada.admin@example.com', is_admin: true, role_id: 1 },
  { id: 2, name: 'Reggie Regular', email: 'reggie.regular@example.com', is_admin: false, role_id: 2 },
  { id: 3, name: 'Sam Seller', email: 'sam.seller@example.com', is_admin: false, role_id: 2 },
];

export function seedBase(state: SandboxState): void {
  const t = SEED_TIME;
  state.company = {
    id: 1, name: 'Sandbox Trading Ltd', domain: 'sandbox-trading', plan: 'premium', default_currency: 'EUR',
    default_visibility: { deal: 3, lead: 3, org: 3, person: 3, product: 3 },
  };
  for (const u of USERS) {
    state.users.insert({
      ...u, active_flag: true, default_currency: 'EUR', locale: 'en_US', timezone_name: 'Europe/Tallinn',
      created: '2025-01-06 09:00:00', modified: '2025-01-06 09:00:00', icon_url: null,
    }, { silent: true });
    state.apiTokens.insert({ id: hex40(`apiToken:${u.id}`), user_id: u.id }, { silent: true });
  }

  const currencies: [string, string, string][] = [
    ['EUR', 'Euro', '€'], ['USD', 'US Dollar', '$'], ['GBP', 'Pound Sterling', '£'], ['SEK', 'Swedish Krona', 'kr'],
  ];
  currencies.forEach(([code, name, symbol]) => state.currencies.insert(
    { code, name, symbol, decimal_points: 2, active_flag: true, is_custom_flag: false }, { silent: true }));

  const types: [string, string, string][] = [
    ['Call', 'call', 'call'], ['Meeting', 'meeting', 'meeting'], ['Task', 'task', 'task'],
    ['Deadline', 'deadline', 'deadline'], ['Email', 'email', 'email'], ['Lunch', 'lunch', 'lunch'],
  ];
  types.forEach(([name, key_string, icon_key], i) => state.activityTypes.insert({
    name, key_string, icon_key, color: null, order_nr: i + 1, active_flag: true, is_custom_flag: false, add_time: t, update_time: t,
  }, { silent: true }));

  const pipelines: [string, string[]][] = [
    ['Sales', ['Qualified', 'Contact Made', 'Demo Scheduled', 'Proposal Made', 'Negotiations Started']],
    ['Partnerships', ['Intro', 'Evaluation', 'Agreement']],
  ];
  pipelines.forEach(([name, stages], i) => {
    const p = state.pipelines.insert({
      name, order_nr: i + 1, is_deal_probability_enabled: false, is_deleted: false, is_default: i === 0, add_time: t, update_time: t,
    }, { silent: true });
    stages.forEach((sn, j) => state.stages.insert({
      name: sn, pipeline_id: p.id, order_nr: j + 1, deal_probability: Math.round(((j + 1) / stages.length) * 100),
      is_deal_rot_enabled: false, days_to_rotten: null, is_deleted: false, add_time: t, update_time: t,
    }, { silent: true }));
  });

  // Default labels of every account (interface: hot, cold, warm).
  const labels: [string, string][] = [['Hot', 'red'], ['Cold', 'blue'], ['Warm', 'yellow']];
  for (const [name, color] of labels) {
    state.leadLabels.insert({ id: seedUuid(`label:${name}`), name, color, add_time: t, update_time: t }, { silent: true });
  }
}
