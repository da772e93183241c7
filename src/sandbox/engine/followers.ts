// Followers of any item type (deals, persons, organizations, products; users follow users too), with the
// history of who started and stopped following. One collection for every type: a follower is
// {object, item_id, user_id}. v2 names a follower by the user's id; v1 by the follower record's id.
import { created, ok } from '../http/envelope.js';
import { ApiError, invalid, notFound } from '../http/errors.js';
import { cursorPage, offsetPage } from '../http/paginate.js';
import { objectBody } from '../http/validate.js';
import type { SandboxState } from '../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../types.js';
import { recordsWhere } from './page-index.js';
import { v1Time, v2Time } from './time.js';

export interface Follower { id: number; object: string; item_id: number; user_id: number; add_time: string; [k: string]: unknown }
export interface FollowerChange {
  id: number; object: string; item_id: number; action: 'added' | 'removed'; actor_user_id: number; follower_user_id: number; time: string; [k: string]: unknown;
}

export const followers = (s: SandboxState) => s.collection<Follower>('followers', { idKind: 'int' });
export const followerChanges = (s: SandboxState) => s.collection<FollowerChange>('followerChanges', { idKind: 'int' });

// A copy: within a list page the lookup's rows are shared by every record of the page (page-index.ts).
export const followersOf = (state: SandboxState, object: string, itemId: number): Follower[] =>
  [...recordsWhere(state, followers(state), 'object+item_id', (f) => `${f.object}:${f.item_id}`, `${object}:${itemId}`)].sort((a, b) => a.id - b.id);

export function addFollower(state: SandboxState, object: string, itemId: number, userId: number, actor: number, time: string): Follower {
  const existing = followersOf(state, object, itemId).find((f) => f.user_id === userId);
  if (existing) return existing;
  const f = followers(state).insert({ object, item_id: itemId, user_id: userId, add_time: time }, { userId: actor });
  followerChanges(state).insert({ object, item_id: itemId, action: 'added', actor_user_id: actor, follower_user_id: userId, time }, { userId: actor });
  return f;
}

export function removeFollower(state: SandboxState, f: Follower, actor: number, time: string): void {
  followers(state).remove(f.id);
  followerChanges(state).insert({ object: f.object, item_id: f.item_id, action: 'removed', actor_user_id: actor, follower_user_id: f.user_id, time }, { userId: actor });
}

/** Moves every follower of `from` to `to` (merges); users already following `to` are not doubled. */
export function moveFollowers(state: SandboxState, object: string, from: number, to: number): void {
  const kept = new Set(followersOf(state, object, to).map((f) => f.user_id));
  for (const f of followersOf(state, object, from)) {
    if (kept.has(f.user_id)) followers(state).remove(f.id);
    else followers(state).update(f.id, { item_id: to }, { silent: true });
  }
}

export interface FollowerRoutesSpec {
  object: string;
  /** v2 item path, e.g. /api/v2/deals/{id} (undefined: no v2 form). */
  v2?: string;
  /** v1 item path, e.g. /api/v1/deals/{id}. */
  v1?: string;
  /** The v1 record names the item as `<key>` (deal_id, org_id, person_id, product_id). */
  v1Key: string;
  /** Status of a v1 follower add: 201 for products (the vendor's documents), else 200. */
  v1AddStatus?: 200 | 201;
  read: string[];
  write: string[];
  /** Loads the item the caller may see (404/403 otherwise). */
  load: (req: SandboxRequest, ctx: HandlerContext) => { id: number };
  /** Which of the routes exist (users have read-only followers). */
  only?: Array<'list' | 'add' | 'remove' | 'changelog' | 'listV1' | 'addV1' | 'removeV1'>;
}

function followerUser(req: SandboxRequest, ctx: HandlerContext): number {
  const b = objectBody(req.body);
  for (const k of Object.keys(b)) if (k !== 'user_id') throw invalid(k, 'is not a known field of this operation');
  const raw = b.user_id;
  const id = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (id === undefined || id === null) throw invalid('user_id', 'is required');
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) throw invalid('user_id', 'must be a positive integer');
  const u = ctx.state.users.get(id);
  if (!u?.active_flag) throw invalid('user_id', `no active user with id ${id}`);
  return id;
}

const intParam = (raw: string, name: string) => {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid(name, 'must be a positive integer');
  return Number(raw);
};

export function followerRoutes(s: FollowerRoutesSpec): RouteDef[] {
  const want = (k: NonNullable<FollowerRoutesSpec['only']>[number]) => !s.only || s.only.includes(k);
  const now = (ctx: HandlerContext) => ctx.now().toISOString();
  const v1Rec = (f: Follower) => ({ user_id: f.user_id, id: f.id, [s.v1Key]: f.item_id, add_time: v1Time(f.add_time) });
  const routes: RouteDef[] = [];
  if (s.v2) {
    if (want('list')) routes.push({
      method: 'GET', path: `${s.v2}/followers`, cost: 10, scopes: s.read,
      handler: (req, ctx) => {
        const item = s.load(req, ctx);
        const page = cursorPage(followersOf(ctx.state, s.object, item.id), req.query, { maxLimit: 500 });
        return ok(page.data.map((f) => ({ user_id: f.user_id, add_time: v2Time(f.add_time) })), page.additional_data);
      },
    });
    if (want('add')) routes.push({
      method: 'POST', path: `${s.v2}/followers`, cost: 5, scopes: s.write,
      handler: (req, ctx) => {
        const item = s.load(req, ctx);
        const userId = followerUser(req, ctx);
        if (followersOf(ctx.state, s.object, item.id).some((f) => f.user_id === userId)) {
          throw new ApiError(400, `User ${userId} already follows this ${s.object}`, 'The follower exists already.');
        }
        const f = addFollower(ctx.state, s.object, item.id, userId, req.userId, now(ctx));
        return created({ user_id: f.user_id, add_time: v2Time(f.add_time) });
      },
    });
    if (want('remove')) routes.push({
      method: 'DELETE', path: `${s.v2}/followers/{follower_id}`, cost: 3, scopes: s.write,
      handler: (req, ctx) => {
        const item = s.load(req, ctx);
        const userId = intParam(req.params.follower_id!, 'follower_id');
        const f = followersOf(ctx.state, s.object, item.id).find((x) => x.user_id === userId);
        if (!f) throw notFound(`User ${userId} does not follow this ${s.object}`);
        removeFollower(ctx.state, f, req.userId, now(ctx));
        return ok({ user_id: userId });
      },
    });
    if (want('changelog')) routes.push({
      method: 'GET', path: `${s.v2}/followers/changelog`, cost: 10, scopes: s.read,
      handler: (req, ctx) => {
        const item = s.load(req, ctx);
        const rows = followerChanges(ctx.state).filter((c) => c.object === s.object && c.item_id === item.id)
          .sort((a, b) => b.time.localeCompare(a.time) || b.id - a.id).map((r, rank) => ({ id: r.id, rank, r }));
        const page = cursorPage(rows, req.query, { field: 'rank', maxLimit: 500 });
        return ok(page.data.map(({ r }) => ({ action: r.action, actor_user_id: r.actor_user_id, follower_user_id: r.follower_user_id, time: v2Time(r.time) })), page.additional_data);
      },
    });
  }
  if (s.v1) {
    if (want('listV1')) routes.push({
      method: 'GET', path: `${s.v1}/followers`, cost: 20, scopes: s.read,
      handler: (req, ctx) => {
        const item = s.load(req, ctx);
        const page = offsetPage(followersOf(ctx.state, s.object, item.id), req.query);
        return ok(page.data.map(v1Rec), page.additional_data);
      },
    });
    if (want('addV1')) routes.push({
      method: 'POST', path: `${s.v1}/followers`, cost: 10, scopes: s.write,
      handler: (req, ctx) => {
        const item = s.load(req, ctx);
        return ok(v1Rec(addFollower(ctx.state, s.object, item.id, followerUser(req, ctx), req.userId, now(ctx))), null, s.v1AddStatus ?? 200);
      },
    });
    if (want('removeV1')) routes.push({
      method: 'DELETE', path: `${s.v1}/followers/{follower_id}`, cost: 6, scopes: s.write,
      handler: (req, ctx) => {
        const item = s.load(req, ctx);
        const id = intParam(req.params.follower_id!, 'follower_id');
        const f = followersOf(ctx.state, s.object, item.id).find((x) => x.id === id);
        if (!f) throw notFound(`Follower ${id} not found on this ${s.object}`);
        removeFollower(ctx.state, f, req.userId, now(ctx));
        return ok({ id });
      },
    });
  }
  return routes;
}
