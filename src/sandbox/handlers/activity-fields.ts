// Area module: activity fields (v2, read-only, admin scope only — the vendor's OpenAPI).
// Every account has the system fields; the demo account adds two custom ones. The `type` field's
// options are the live activity types (built-in options carry string ids: the key_string).
import { ok } from '../http/envelope.js';
import { invalid, notFound } from '../http/errors.js';
import { cursorPage } from '../http/paginate.js';
import type { Query } from '../http/query.js';
import { hex40, SEED_TIME } from '../seed/base.js';
import { v1Type } from '../engine/fields/v1.js';
import { v1Time } from '../engine/time.js';
import type { SandboxState } from '../store/state.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../types.js';

interface ActivityField {
  /** Sandbox-side order only (v2 field metadata has no numeric id); stripped from responses. */
  id: number;
  field_code: string;
  field_name: string;
  description: string;
  field_type: string;
  options: Array<{ id: number | string; label: string; color: string | null; add_time: string | null; update_time: string | null }> | null;
  subfields: Array<{ field_code: string; field_name: string; field_type: string }> | null;
  is_custom_field: boolean;
  is_optional_response_field: boolean;
  ui_visibility: { add_visible_flag: boolean; details_visible_flag: boolean };
  [k: string]: unknown;
}

const SCOPES = ['admin'];
const INCLUDABLE = ['ui_visibility'] as const;
const fields = (s: SandboxState) => s.collection<ActivityField>('activityFields', { idKind: 'int' });

const ADDRESS_PARTS: [string, string][] = [
  ['value', 'Address value'], ['street_number', 'House number'], ['route', 'Street/road name'], ['subpremise', 'Apartment/suite'],
  ['locality', 'District'], ['admin_area_level_1', 'State/province'], ['admin_area_level_2', 'County'], ['country', 'Country'],
  ['postal_code', 'Postal code'], ['formatted_address', 'Formatted address'],
];

function includes(q: Query): Set<string> {
  const asked = q.list('include_fields') ?? [];
  for (const v of asked) if (!(INCLUDABLE as readonly string[]).includes(v)) throw invalid('include_fields', `must be one of ${INCLUDABLE.join(', ')}`);
  return new Set(asked);
}

function present(state: SandboxState, f: ActivityField, inc: Set<string>): Record<string, unknown> {
  const { id: _id, ui_visibility, ...rest } = f;
  const out: Record<string, unknown> = { ...rest };
  if (f.field_code === 'type') {
    out.options = [...state.activityTypes.all()].sort((a, b) => a.order_nr - b.order_nr)
      .map((t) => ({ id: t.key_string, label: t.name, color: t.color, add_time: t.add_time, update_time: t.update_time }));
  }
  if (inc.has('ui_visibility')) out.ui_visibility = ui_visibility;
  return out;
}

function list(req: SandboxRequest, ctx: HandlerContext) {
  const inc = includes(req.query);
  const page = cursorPage([...fields(ctx.state).all()].sort((a, b) => a.id - b.id), req.query, { maxLimit: 500 });
  return ok(page.data.map((f) => present(ctx.state, f, inc)), page.additional_data);
}

function get(req: SandboxRequest, ctx: HandlerContext) {
  const inc = includes(req.query);
  const f = fields(ctx.state).find((x) => x.field_code === req.params.field_code);
  if (!f) throw notFound('Field not found');
  return ok(present(ctx.state, f, inc));
}

function seed(state: SandboxState, name: string): void {
  const col = fields(state);
  const add = (field_code: string, field_name: string, field_type: string, description: string, o: Partial<ActivityField> = {}) =>
    col.insert({
      id: col.allocateId() as number, field_code, field_name, field_type, description, options: null, subfields: null, is_custom_field: false,
      is_optional_response_field: false, ui_visibility: { add_visible_flag: true, details_visible_flag: true }, ...o,
    }, { silent: true });
  const hidden = { ui_visibility: { add_visible_flag: false, details_visible_flag: true } };
  add('subject', 'Subject', 'varchar', 'The subject or title of the activity');
  add('type', 'Type', 'varchar_options', 'The activity type (its key_string)');
  add('due_date', 'Due date', 'date', 'The date the activity is due');
  add('due_time', 'Due time', 'time', 'The time the activity is due (HH:MM)');
  add('duration', 'Duration', 'time', 'How long the activity lasts (HH:MM)');
  add('busy_flag', 'Free/busy', 'boolean', 'Whether the activity marks the assignee busy');
  add('done', 'Done', 'boolean', 'Whether the activity is done');
  add('owner_id', 'Assigned to user', 'user', 'The user the activity is assigned to');
  add('deal_id', 'Deal', 'deal', 'The deal the activity is linked to');
  add('lead_id', 'Lead', 'lead', 'The lead the activity is linked to');
  add('person_id', 'Contact person', 'people', 'The person the activity is linked to');
  add('org_id', 'Organization', 'org', 'The organization the activity is linked to');
  add('project_id', 'Project', 'project', 'The project the activity is linked to', hidden);
  add('location', 'Location', 'address', 'Physical location where the activity takes place', {
    subfields: ADDRESS_PARTS.map(([code, label]) => ({ field_code: code, field_name: `${label} of Location`, field_type: 'varchar' })),
  });
  add('public_description', 'Description', 'text', 'Description shown to invited participants');
  add('note', 'Note', 'text', 'A private note about the activity');
  add('priority', 'Priority', 'enum', 'How urgent the activity is', {
    options: [['high', 'High'], ['medium', 'Medium'], ['low', 'Low']].map(([id, label]) => ({ id: id!, label: label!, color: null, add_time: null, update_time: null })),
  });
  add('add_time', 'Add time', 'date', 'When the activity was created', { ...hidden, is_optional_response_field: true });
  add('update_time', 'Update time', 'date', 'When the activity was last changed', { ...hidden, is_optional_response_field: true });
  add('marked_as_done_time', 'Marked as done time', 'date', 'When the activity was marked done', { ...hidden, is_optional_response_field: true });
  if (name !== 'demo') return;
  add(hex40('activityField:outcome'), 'Call outcome', 'enum', 'Result of a call', {
    is_custom_field: true,
    options: ['Reached', 'Voicemail', 'No answer', 'Wrong number'].map((label, i) => ({ id: 201 + i, label, color: null, add_time: SEED_TIME, update_time: SEED_TIME })),
  });
  add(hex40('activityField:agenda'), 'Meeting agenda', 'text', 'Agenda shared before a meeting', { is_custom_field: true, ...hidden });
}

export const activityFieldsArea: AreaModule = {
  name: 'activity-fields',
  routes: [
    { method: 'GET', path: '/api/v2/activityFields', cost: 10, scopes: SCOPES, handler: list },
    // v1: the same fields in the classic shape (numeric id, key, order), offset-free.
    { method: 'GET', path: '/api/v1/activityFields', cost: 20, scopes: ['activities:read', 'activities:full'], handler: (_req, ctx) => ok(
      [...fields(ctx.state).all()].sort((a, b) => a.id - b.id).map((f, i) => ({
        id: f.id, key: f.field_code, name: f.field_name, order_nr: i, field_type: v1Type(f.field_type), add_time: v1Time(SEED_TIME), update_time: v1Time(SEED_TIME),
        last_updated_by_user_id: null, active_flag: true, edit_flag: f.is_custom_field, index_visible_flag: true, details_visible_flag: f.ui_visibility.details_visible_flag,
        add_visible_flag: f.ui_visibility.add_visible_flag, important_flag: false, bulk_edit_allowed: true, searchable_flag: false, filtering_allowed: true, sortable_flag: true,
        mandatory_flag: false, ...(f.options ? { options: f.options.map((o) => ({ id: o.id, label: o.label })) } : {}),
      }))) },
    { method: 'GET', path: '/api/v2/activityFields/{field_code}', cost: 1, scopes: SCOPES, handler: get },
  ],
  seed,
};
