// What hangs off any deal, organization or product in the v1 API: files, permitted users, mail
// messages and the flow (the item's history, newest first). Persons keep their own richer forms
// (persons/related.ts) because the interface specifies them in detail.
import { noteMembers } from '../notes/common.js';
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { offsetPage } from '../../http/paginate.js';
import { parseSort } from '../../http/sort.js';
import type { FileRec } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee, canSeeAttached, permittedUserIds } from '../../engine/access.js';
import { changesOf } from '../../engine/changelog.js';
import { followersOf } from '../../engine/followers.js';
import { v1Time } from '../../engine/time.js';
import { messages } from '../mailbox/common.js';
import type { MailMessage } from '../mailbox/common.js';
import { v1Activity } from '../activities/present.js';
import { v1Deal } from '../deals/present.js';

/** How an item type is named in children records (notes.deal_id, files.org_id, ...). */
export type ItemKey = 'deal_id' | 'org_id' | 'product_id';
type Loader = (req: SandboxRequest, ctx: HandlerContext) => { id: number; owner_id: number; visible_to: number | string };

const FILE_SORT = ['id', 'update_time'];

/** GET <item>/files: offset pages (max 100), sort by id or update_time. */
export function filesRoute(path: string, key: ItemKey, scopes: string[], load: Loader): RouteDef {
  return {
    method: 'GET', path: `${path}/files`, cost: 20, scopes,
    handler: (req, ctx) => {
      const item = load(req, ctx);
      let rows: FileRec[] = ctx.state.files.filter((f) => f[key] === item.id);
      const sort = req.query.str('sort');
      if (sort) rows = [...rows].sort(parseSort(sort, (f) => FILE_SORT.includes(f)));
      const page = offsetPage(rows, req.query, { maxLimit: 100 });
      return ok(page.data, page.additional_data);
    },
  };
}

/** GET <item>/permittedUsers: ids of the active users who may see the item. */
export function permittedUsersRoute(path: string, scopes: string[], load: Loader): RouteDef {
  return { method: 'GET', path: `${path}/permittedUsers`, cost: 10, scopes, handler: (req, ctx) => ok(permittedUserIds(ctx.state, load(req, ctx))) };
}

/** A query flag that takes 0 or 1 only (v1's switches). */
export function flag01(req: SandboxRequest, name: string): 0 | 1 | undefined {
  const v = req.query.str(name);
  if (v === undefined) return undefined;
  if (v !== '0' && v !== '1') throw invalid(name, 'must be 0 or 1');
  return Number(v) as 0 | 1;
}

const mailData = (m: MailMessage, withBody: boolean) => {
  const { body, ...rest } = m;
  return withBody ? { ...rest, body } : rest;
};

/** GET <item>/mailMessages: the messages filed on the item, newest first; body only with include_body=1. */
export function mailMessagesRoute(path: string, of: (state: SandboxState, id: number) => MailMessage[], load: Loader): RouteDef {
  return {
    method: 'GET', path: `${path}/mailMessages`, cost: 20, scopes: ['mail:read', 'mail:full'],
    handler: (req, ctx) => {
      const item = load(req, ctx);
      const withBody = flag01(req, 'include_body') === 1;
      const rows = of(ctx.state, item.id).sort((a, b) => b.message_time.localeCompare(a.message_time));
      const page = offsetPage(rows.map((m) => ({ object: 'mailMessage', timestamp: v1Time(m.message_time), data: mailData(m, withBody) })), req.query);
      return ok(page.data, page.additional_data);
    },
  };
}

/** Mail of an organization: messages whose parties are persons of the organization. */
export function orgMessages(state: SandboxState, orgId: number): MailMessage[] {
  const people = new Set(state.persons.filter((p) => p.org_id === orgId).map((p) => p.id));
  return messages(state).filter((m) => [...m.from, ...m.to, ...m.cc].some((x) => x.linked_person_id !== null && people.has(x.linked_person_id)));
}

export interface FlowSpec {
  object: 'deal' | 'organization';
  key: 'deal_id' | 'org_id';
  path: string;
  load: Loader;
  mail: (state: SandboxState, id: number) => MailMessage[];
}

/** GET <item>/flow: notes, activities, files, deals, field changes, followers and mail of the item. */
export function flowRoute(s: FlowSpec): RouteDef {
  return {
    method: 'GET', path: `${s.path}/flow`, cost: 40, scopes: ['recents:read'],
    handler: (req, ctx) => {
      const { state } = ctx;
      const item = s.load(req, ctx);
      const all = flag01(req, 'all_changes') === 1;
      const items = req.query.list('items');
      const out: { object: string; timestamp: string; data: Record<string, unknown> }[] = [];
      // What else is attached elsewhere is shown only to who may see those items too.
      const seen = (r: Record<string, unknown>) => canSeeAttached(state, req.user, r);
      for (const n of state.notes.filter((x) => x[s.key] === item.id && seen(x))) out.push({ object: 'note', timestamp: v1Time(n.add_time)!, data: noteMembers(n) });
      for (const a of state.activities.filter((x) => x[s.key] === item.id && seen(x))) out.push({ object: a.done ? 'activity' : 'plannedActivity', timestamp: v1Time(a.add_time)!, data: v1Activity(state, a) });
      for (const f of state.files.filter((x) => x[s.key] === item.id)) out.push({ object: 'file', timestamp: v1Time(f.add_time)!, data: { ...f } });
      if (s.object === 'organization') for (const d of state.deals.filter((x) => x.org_id === item.id && canSee(state, req.user, x))) out.push({ object: 'deal', timestamp: v1Time(d.add_time)!, data: v1Deal(state, d) });
      const changeObject = s.object === 'deal' ? 'dealChange' : 'organizationChange';
      for (const c of changesOf(state, s.object, item.id)) {
        // Custom-field changes only with all_changes=1 (as for persons).
        if (!all && /^[0-9a-f]{40}$/.test(c.field_key)) continue;
        out.push({ object: changeObject, timestamp: v1Time(c.time)!, data: { id: c.id, item_id: item.id, user_id: c.actor_user_id, field_key: c.field_key, old_value: c.old_value, new_value: c.new_value, log_time: v1Time(c.time), change_source: c.change_source } });
      }
      for (const f of followersOf(state, s.object, item.id)) out.push({ object: `${s.object}Follower`, timestamp: v1Time(f.add_time)!, data: { id: f.id, user_id: f.user_id, [s.key]: item.id, add_time: v1Time(f.add_time) } });
      if (s.object === 'deal') for (const p of state.participants.filter((x) => x.deal_id === item.id)) out.push({ object: 'participant', timestamp: v1Time(p.add_time)!, data: { ...p } });
      for (const m of s.mail(state, item.id)) out.push({ object: m.has_attachments_flag ? 'mailMessageWithAttachment' : 'mailMessage', timestamp: v1Time(m.message_time)!, data: mailData(m, false) });
      const rows = out.filter((x) => !items || items.includes(x.object)).sort((a, b) => b.timestamp.localeCompare(a.timestamp));
      const page = offsetPage(rows, req.query);
      return ok(page.data, page.additional_data);
    },
  };
}
