// Writes to persons: v2 create, update and delete (described once as a resource), v1 merge and the v1
// picture upload/delete. Reads stay in lists.ts/related.ts where the interface details them.
import { ok } from '../../http/envelope.js';
import { invalid, notFound } from '../../http/errors.js';
import type { UploadedPart } from '../../http/body.js';
import { objectBody, rejectUnknown, reqInt } from '../../http/validate.js';
import type { Person } from '../../store/records.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee } from '../../engine/access.js';
import { defaultVisibility } from '../roles/store.js';
import { addressRule } from '../../engine/address.js';
import { loggedUpdate } from '../../engine/changelog.js';
import { crudRoutes } from '../../engine/crud.js';
import { addFollower, moveFollowers } from '../../engine/followers.js';
import type { Input, ResourceSpec } from '../../engine/resource.js';
import { r, REF, type Rule } from '../../engine/rules.js';
import { hex40 } from '../../seed/base.js';
import { contactSync, loadPerson, personLabels, pictures, READ } from './common.js';
import { v1Person, v2Person } from './present.js';

const WRITE = ['contacts:full'];

const contact = r.object({ value: r.string({ max: 255 }), primary: r.bool(), label: r.string({ empty: true, max: 64 }) }, { required: ['value'] });
/** Emails, phones and ims: at most one primary; the first becomes primary when none is. */
const contacts: Rule = r.custom((v, f, env) => {
  const list = r.list(contact, { max: 100 }).parse(v, f, env) as Array<{ value: string; primary?: boolean; label?: string }>;
  if (list.filter((x) => x.primary).length > 1) throw invalid(f, 'at most one entry may be primary');
  return list.map((x, i) => ({ value: x.value, primary: x.primary ?? (i === 0 && !list.some((y) => y.primary)), label: x.label ?? (f === 'emails' || f === 'phones' ? 'work' : '') }));
});
const labels: Rule = r.custom((v, f, env) => {
  const ids = r.ids().parse(v, f, env) as number[];
  const known = new Set(personLabels(env.state).map((l) => l.id));
  const bad = ids.filter((id) => !known.has(id));
  if (bad.length) throw invalid(f, `${bad.join(', ')} ${bad.length === 1 ? 'is not a person label' : 'are not person labels'}`);
  return ids;
});
/** Members that exist only when the company uses contact sync (interface, Person). */
const syncOnly = (rule: Rule): Rule => r.custom((v, f, env) => {
  if (!contactSync(env.state)) throw invalid(f, 'is only available when contact sync is enabled for the company');
  return v === null ? null : rule.parse(v, f, env);
});

const MEMBERS: Record<string, Rule> = {
  name: r.string({ max: 255 }),
  owner_id: r.ref(REF.user),
  org_id: r.nullable(r.ref(REF.organization)),
  add_time: r.dateTime(),
  emails: contacts,
  phones: contacts,
  visible_to: r.visibleTo(),
  label_ids: labels,
  postal_address: syncOnly(addressRule),
  notes: syncOnly(r.string({ empty: true, max: 65_000 })),
  im: syncOnly(contacts),
  birthday: syncOnly(r.date()),
  job_title: syncOnly(r.string({ empty: true, max: 255 })),
  marketing_status: r.oneOf(['no_consent', 'unsubscribed', 'subscribed', 'archived'] as const),
  custom_fields: r.custom((v) => v),
};

function names(name: string): { first_name: string; last_name: string } {
  const parts = name.trim().split(/\s+/);
  return { first_name: parts[0] ?? '', last_name: parts.slice(1).join(' ') };
}

/** `im` is stored as `ims` (the record's key for instant messengers). */
function plain(input: Input): Partial<Person> {
  const { custom_fields: _c, im, ...rest } = input;
  return { ...(rest as Partial<Person>), ...(im !== undefined ? { ims: im } : {}), ...(typeof input.name === 'string' ? names(input.name) : {}) };
}

export const personSpec: ResourceSpec<Person> = {
  object: 'person',
  collection: (s) => s.persons,
  notFound: 'Person not found',
  base: '/api/v2/persons',
  scopes: { read: READ, write: WRITE },
  fields: 'person',
  owned: true,
  changelog: true,
  members: MEMBERS,
  // A person needs a name (the web app and v1 require it; v2 documents none as required).
  required: ['name'],
  build: (env, input) => ({
    emails: [], phones: [], label_ids: [], picture_id: null, org_id: null, is_deleted: false,
    ...plain(input), name: input.name as string, owner_id: (input.owner_id as number | undefined) ?? env.userId,
    visible_to: (input.visible_to as number | undefined) ?? defaultVisibility(env.state, env.req.user, 'person'),
    add_time: (input.add_time as string | undefined) ?? env.now, update_time: env.now,
    custom_fields: Object.fromEntries(Object.entries((input.custom_fields ?? {}) as Record<string, unknown>).filter(([, v]) => v !== null)),
  } as Omit<Person, 'id'>),
  change: (_env, _p, input) => plain(input),
  after: (env, p, action) => { if (action === 'create') addFollower(env.state, 'person', p.id, p.owner_id, env.userId, env.now); },
  present: (state, p) => v2Person(state, p),
};

function merge(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadPerson(state, req.user, req.params.id!);
  const b = objectBody(req.body);
  rejectUnknown(b, ['merge_with_id']);
  const target = reqInt(b, 'merge_with_id', { min: 1 });
  if (target === p.id) throw invalid('merge_with_id', 'must name another person');
  const into = state.persons.get(target);
  if (!into) throw invalid('merge_with_id', `no person with id ${target}`);
  if (!canSee(state, req.user, into)) throw invalid('merge_with_id', `person ${target} is not visible to you`);
  const w = { userId: req.userId };
  // Children move to the kept person; emails and phones it lacks are added (not primary).
  const now = ctx.now().toISOString();
  // Logged as any update is: the deals moved, and the kept person's contacts (below).
  for (const d of state.deals.filter((x) => x.person_id === p.id)) loggedUpdate(state, 'deal', state.deals, d.id, { person_id: into.id }, req, now);
  for (const a of state.activities.filter((x) => x.person_id === p.id)) state.activities.update(a.id, { person_id: into.id }, w);
  for (const n of state.notes.filter((x) => x.person_id === p.id)) state.notes.update(n.id, { person_id: into.id }, w);
  for (const f of state.files.filter((x) => x.person_id === p.id)) state.files.update(f.id, { person_id: into.id }, w);
  for (const l of state.leads.filter((x) => x.person_id === p.id)) state.leads.update(l.id, { person_id: into.id }, w);
  for (const x of state.participants.filter((y) => y.person_id === p.id)) state.participants.update(x.id, { person_id: into.id }, { silent: true });
  moveFollowers(state, 'person', p.id, into.id);
  const add = (mine: Person['emails'], theirs: Person['emails']) => [...mine, ...theirs.filter((e) => !mine.some((m) => m.value.toLowerCase() === e.value.toLowerCase())).map((e) => ({ ...e, primary: false }))];
  loggedUpdate(state, 'person', state.persons, into.id, { emails: add(into.emails, p.emails), phones: add(into.phones, p.phones), org_id: into.org_id ?? p.org_id, update_time: now }, req, now);
  state.persons.markDeleted(p.id, { is_deleted: true, update_time: now }, w);
  return ok({ ...v1Person(state, state.persons.get(into.id)!), merge_what_id: p.id });
}

const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif'];

function addPicture(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadPerson(state, req.user, req.params.id!);
  const body = (req.body ?? {}) as Record<string, UploadedPart | string>;
  for (const k of Object.keys(body)) if (!['file', 'crop_x', 'crop_y', 'crop_width', 'crop_height'].includes(k)) throw invalid(k, 'is not a known field of this operation');
  const file = body.file;
  if (file === undefined) throw invalid('file', 'is required (the picture)');
  if (typeof file === 'string' || !file.filename) throw invalid('file', 'must be a file part');
  if (!PICTURE_TYPES.includes(file.contentType ?? '')) throw invalid('file', `must be a picture (${PICTURE_TYPES.join(', ')}), not ${file.contentType ?? 'unknown'}`);
  const crop = ['crop_x', 'crop_y', 'crop_width', 'crop_height'].map((k) => body[k]);
  for (const [i, k] of ['crop_x', 'crop_y', 'crop_width', 'crop_height'].entries()) {
    const v = crop[i];
    if (v !== undefined && (typeof v !== 'string' || !/^\d+$/.test(v))) throw invalid(k, 'must be a non-negative integer');
  }
  if (crop.some((v) => v !== undefined) && crop.some((v) => v === undefined)) throw invalid('crop_x', 'crop_x, crop_y, crop_width and crop_height go together');
  if (p.picture_id) pictures(state).remove(p.picture_id);
  const h = hex40(`personPicture:${p.id}:${Date.now()}`).slice(0, 16);
  const pic = pictures(state).insert({
    item_type: 'person', item_id: p.id, added_by_user_id: req.userId, active_flag: true, file_size: file.data.length, add_time: ctx.now().toISOString(),
    pictures: { '128': `https://pictures.sandbox.invalid/person/${h}_128x128.jpg`, '512': `https://pictures.sandbox.invalid/person/${h}_512x512.jpg` },
  }, { userId: req.userId });
  state.persons.update(p.id, { picture_id: pic.id, update_time: ctx.now().toISOString() }, { userId: req.userId });
  const { add_time: _a, ...rest } = pic;
  return ok(rest);
}

function deletePicture(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadPerson(state, req.user, req.params.id!);
  if (!p.picture_id || !pictures(state).get(p.picture_id)) throw notFound('Person picture not found');
  const id = p.picture_id;
  pictures(state).remove(id);
  state.persons.update(p.id, { picture_id: null, update_time: ctx.now().toISOString() }, { userId: req.userId });
  return ok({ id });
}

export const writeRoutes: RouteDef[] = [
  ...crudRoutes(personSpec, ['create', 'update', 'delete']),
  { method: 'PUT', path: '/api/v1/persons/{id}/merge', cost: 40, scopes: WRITE, handler: merge },
  { method: 'POST', path: '/api/v1/persons/{id}/picture', cost: 10, scopes: WRITE, body: 'multipart', handler: addPicture },
  { method: 'DELETE', path: '/api/v1/persons/{id}/picture', cost: 6, scopes: WRITE, handler: deletePicture },
];
