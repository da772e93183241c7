// Area module: organizations — v2 CRUD, search and followers; v1 changelog, flow, merge, permitted users,
// mail messages and files. The resource is described once in spec.ts.
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { objectBody, rejectUnknown, reqInt } from '../../http/validate.js';
import type { Organization } from '../../store/records.js';
import type { AreaModule, HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee } from '../../engine/access.js';
import { changelogRoute, loggedUpdate } from '../../engine/changelog.js';
import { crudRoutes, loadRecord } from '../../engine/crud.js';
import { followerRoutes, moveFollowers } from '../../engine/followers.js';
import { searchRoute } from '../../engine/search.js';
import { v1Time } from '../../engine/time.js';
import { filesRoute, flowRoute, mailMessagesRoute, orgMessages, permittedUsersRoute } from '../shared/related.js';
import { ORG_READ, ORG_WRITE, organizationSpec } from './spec.js';

const V1 = '/api/v1/organizations/{id}';
const loadOrg = (req: SandboxRequest, ctx: HandlerContext) => loadRecord(organizationSpec, ctx.state, req);

/** PUT merge: the organization in the path merges into merge_with_id; its persons, deals, activities, notes, files and followers move. */
function merge(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const o = loadOrg(req, ctx);
  const b = objectBody(req.body);
  rejectUnknown(b, ['merge_with_id']);
  const target = reqInt(b, 'merge_with_id', { min: 1 });
  if (target === o.id) throw invalid('merge_with_id', 'must name another organization');
  const into = state.organizations.get(target);
  if (!into) throw invalid('merge_with_id', `no organization with id ${target}`);
  if (!canSee(state, req.user, into)) throw invalid('merge_with_id', `organization ${target} is not visible to you`);
  const w = { userId: req.userId };
  const now = ctx.now().toISOString();
  // The persons and deals moved are logged as any update is (their org_id changed).
  for (const p of state.persons.filter((x) => x.org_id === o.id)) loggedUpdate(state, 'person', state.persons, p.id, { org_id: into.id }, req, now);
  for (const d of state.deals.filter((x) => x.org_id === o.id)) loggedUpdate(state, 'deal', state.deals, d.id, { org_id: into.id }, req, now);
  for (const a of state.activities.filter((x) => x.org_id === o.id)) state.activities.update(a.id, { org_id: into.id }, w);
  for (const n of state.notes.filter((x) => x.org_id === o.id)) state.notes.update(n.id, { org_id: into.id }, w);
  for (const f of state.files.filter((x) => x.org_id === o.id)) state.files.update(f.id, { org_id: into.id }, w);
  for (const l of state.leads.filter((x) => x.organization_id === o.id)) state.leads.update(l.id, { organization_id: into.id }, w);
  moveFollowers(state, 'organization', o.id, into.id);
  state.organizations.markDeleted(o.id, { is_deleted: true, update_time: now } as Partial<Organization>, w);
  const m = state.organizations.get(into.id)!;
  return ok({ id: m.id, name: m.name, owner_id: m.owner_id, add_time: v1Time(m.add_time), update_time: v1Time(m.update_time), active_flag: true, merge_what_id: o.id });
}

const v1Routes: RouteDef[] = [
  changelogRoute({ object: 'organization', path: V1, scopes: ['recents:read'], load: loadOrg }),
  flowRoute({ object: 'organization', key: 'org_id', path: V1, load: loadOrg, mail: orgMessages }),
  { method: 'PUT', path: `${V1}/merge`, cost: 40, scopes: ORG_WRITE, handler: merge },
  permittedUsersRoute(V1, ORG_READ, loadOrg),
  mailMessagesRoute(V1, orgMessages, loadOrg),
  filesRoute(V1, 'org_id', ORG_READ, loadOrg),
];

export const organizationsArea: AreaModule = {
  name: 'organizations',
  routes: [
    searchRoute(organizationSpec),
    ...crudRoutes(organizationSpec),
    ...followerRoutes({ object: 'organization', v2: '/api/v2/organizations/{id}', v1: V1, v1Key: 'org_id', read: ORG_READ, write: ORG_WRITE, load: loadOrg }),
    ...v1Routes,
  ],
};
