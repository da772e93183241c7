// Area module: activities (v2). An activity has a type (an active activity type's key_string), a due date
// and time with a duration, a done flag (marking it done stamps marked_as_done_time), links to a deal or
// lead, a person, an organization and a project, participants (persons; one primary) and attendees.
import { invalid } from '../../http/errors.js';
import type { Activity } from '../../store/records.js';
import type { AreaModule } from '../../types.js';
import { addressRule } from '../../engine/address.js';
import { crudRoutes } from '../../engine/crud.js';
import type { Input, ResourceSpec } from '../../engine/resource.js';
import { r, REF, type Rule } from '../../engine/rules.js';
import { v2Activity } from './present.js';

const READ = ['activities:read', 'activities:full'];
const WRITE = ['activities:full'];

const activityType: Rule = r.custom((v, f, env) => {
  if (typeof v !== 'string' || !v) throw invalid(f, 'must be the key_string of an activity type');
  const types = env.state.activityTypes.filter((t) => t.active_flag);
  if (!types.some((t) => t.key_string === v)) throw invalid(f, `must be the key_string of an active activity type (${types.map((t) => t.key_string).join(', ')})`);
  return v;
});

const participant = r.object({ person_id: r.ref(REF.person), primary: r.bool() }, { required: ['person_id'] });
const attendee = r.object({
  email: r.string({ max: 255 }), name: r.string({ max: 255 }), status: r.string({ max: 32 }), is_organizer: r.bool(),
  person_id: r.ref(REF.person), user_id: r.ref(REF.user),
});

const MEMBERS: Record<string, Rule> = {
  subject: r.string({ max: 255 }),
  type: activityType,
  owner_id: r.ref(REF.user),
  deal_id: r.nullable(r.ref(REF.deal)),
  lead_id: r.nullable(r.uuidRef(REF.lead)),
  person_id: r.nullable(r.ref(REF.person)),
  org_id: r.nullable(r.ref(REF.organization)),
  project_id: r.nullable(r.ref(REF.project)),
  due_date: r.nullable(r.date()),
  due_time: r.nullable(r.hhmm()),
  duration: r.nullable(r.hhmm()),
  busy: r.bool(),
  done: r.bool(),
  location: r.nullable(addressRule),
  participants: r.list(participant, { max: 100 }),
  attendees: r.list(attendee, { max: 100 }),
  public_description: r.nullable(r.string({ empty: true, max: 65_000 })),
  priority: r.nullable(r.int({ min: 0 })),
  note: r.nullable(r.string({ empty: true, max: 100_000 })),
};

/** Rules across members: a due time needs a due date; at most one primary participant. */
function crossCheck(input: Input, current?: Activity): void {
  const date = input.due_date !== undefined ? input.due_date : current?.due_date ?? null;
  if (input.due_time != null && !date) throw invalid('due_time', 'needs a due_date');
  const parts = input.participants as { primary?: boolean }[] | undefined;
  if (parts && parts.filter((p) => p.primary).length > 1) throw invalid('participants', 'at most one participant may be primary');
  if (input.deal_id != null && input.lead_id != null) throw invalid('lead_id', 'an activity links a deal or a lead, not both');
}

const doneTime = (input: Input, now: string, current?: Activity) =>
  input.done === undefined ? {} : { marked_as_done_time: input.done ? (current?.done ? current.marked_as_done_time ?? now : now) : null };

/** The primary participant becomes the activity's person when none is named. */
function primaryPerson(input: Input): number | undefined {
  const parts = input.participants as { person_id: number; primary?: boolean }[] | undefined;
  return parts?.find((p) => p.primary)?.person_id ?? parts?.[0]?.person_id;
}

export const activitySpec: ResourceSpec<Activity> = {
  object: 'activity',
  collection: (s) => s.activities,
  notFound: 'Activity not found',
  base: '/api/v2/activities',
  scopes: { read: READ, write: WRITE },
  // An activity on a deal, lead, person or organization is seen only by who may see that item.
  attached: true,
  members: MEMBERS,
  build: (env, input) => {
    crossCheck(input);
    const type = (input.type as string | undefined) ?? env.state.activityTypes.filter((t) => t.active_flag).sort((a, b) => a.order_nr - b.order_nr)[0]?.key_string ?? 'task';
    return {
      subject: (input.subject as string | undefined) ?? env.state.activityTypes.find((t) => t.key_string === type)?.name ?? 'Activity',
      type, owner_id: (input.owner_id as number | undefined) ?? env.userId, creator_user_id: env.userId,
      deal_id: (input.deal_id as number | null | undefined) ?? null, lead_id: (input.lead_id as string | null | undefined) ?? null,
      person_id: (input.person_id as number | null | undefined) ?? primaryPerson(input) ?? null, org_id: (input.org_id as number | null | undefined) ?? null,
      project_id: (input.project_id as number | null | undefined) ?? null, due_date: (input.due_date as string | null | undefined) ?? null,
      due_time: (input.due_time as string | null | undefined) ?? null, duration: (input.duration as string | null | undefined) ?? null,
      busy: (input.busy as boolean | undefined) ?? false, done: (input.done as boolean | undefined) ?? false, marked_as_done_time: null,
      location: input.location ?? null, participants: input.participants ?? [], attendees: input.attendees ?? [],
      public_description: input.public_description ?? null, priority: input.priority ?? null, note: input.note ?? null,
      add_time: env.now, update_time: env.now, is_deleted: false, ...doneTime(input, env.now),
    } as Omit<Activity, 'id'>;
  },
  change: (env, a, input) => { crossCheck(input, a); return { ...input, ...doneTime(input, env.now, a) } as Partial<Activity>; },
  present: (state, a, o) => v2Activity(state, a, o.include),
  include: ['attendees'],
  list: {
    filters: {
      owner_id: { kind: 'int', test: (a, v: number) => a.owner_id === v },
      deal_id: { kind: 'int', test: (a, v: number) => a.deal_id === v },
      lead_id: { kind: 'string', test: (a, v: string) => a.lead_id === v },
      person_id: { kind: 'int', test: (a, v: number) => a.person_id === v },
      org_id: { kind: 'int', test: (a, v: number) => a.org_id === v },
      done: { kind: 'bool', test: (a, v: boolean) => a.done === v },
    },
    sortBy: ['id', 'update_time', 'add_time', 'due_date'],
    filterType: 'activity',
    ids: true,
    updated: true,
  },
};

export const activitiesArea: AreaModule = { name: 'activities', routes: crudRoutes(activitySpec) };
