import * as z from 'zod/mini';
import type { OperationCli, OperationRow } from '../operation.js';
import { cursorQuery, offsetQuery, pathId } from '../schemas.js';

/** Names of the {placeholders} of a path, as a type: '/a/{id}/b/{b_id}' → 'id' | 'b_id'. */
type Placeholders<P extends string> = P extends `${string}{${infer N}}${infer R}` ? N | Placeholders<R> : never;

/** The path parameters of a row whose every {placeholder} is a positive integer id (most rows). */
export function pathIds<P extends string>(path: P): () => z.ZodMiniObject<{ [K in Placeholders<P>]: ReturnType<typeof pathId> }> {
  return () => z.object(Object.fromEntries([...path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1]!, pathId()]))) as z.ZodMiniObject<{ [K in Placeholders<P>]: ReturnType<typeof pathId> }>;
}

/** What a row adds to the defaults of its builder (a query, a body, 201, a page size...). */
type Extra = Omit<OperationRow, 'method' | 'path' | 'cost' | 'scopes' | 'pagination' | 'cli'> & { pagination?: OperationRow['pagination'] };

type PathParams<P extends string> = [Placeholders<P>] extends [never] ? Record<never, never> : { params: ReturnType<typeof pathIds<P>> };

/** `{ params }` for a path with {placeholders}, nothing for a path without. */
function paramsOf<P extends string>(path: P): PathParams<P> {
  return (/\{[^}]+\}/.test(path) ? { params: pathIds(path) } : {}) as PathParams<P>;
}

/** A GET with no paging: one record by its path ids, or a list the service answers whole. */
export function getRow<P extends string, E extends Extra = Record<never, never>>(path: P, cost: number | null, scopes: readonly string[], cli: OperationCli, extra?: E) {
  return { method: 'GET' as const, path, cost, scopes, pagination: 'none' as const, ...paramsOf(path), ...(extra as E), cli };
}

/** A change of one record by its path ids (PATCH or PUT, with its body in `extra`). */
export function updateRow<P extends string, E extends Extra>(method: 'PATCH' | 'PUT', path: P, cost: number | null, scopes: readonly string[], cli: OperationCli, extra: E) {
  return { method, path, cost, scopes, pagination: 'none' as const, params: pathIds(path), ...extra, cli };
}

/**
 * Deleting one record by its path ids: always confirmed. The answer is the deleted id (its column and only
 * known field) unless the row names its own columns; then it knows only the fields it names.
 */
export function deleteRow<P extends string, E extends Extra = Record<never, never>>(path: P, cost: number | null, scopes: readonly string[], cli: Omit<OperationCli, 'confirm'>, extra?: E) {
  const answer = cli.columns ? {} : { columns: ['id'], fields: ['id'] };
  return { method: 'DELETE' as const, path, cost, scopes, pagination: 'none' as const, params: pathIds(path), ...(extra as E), cli: { ...answer, ...cli, confirm: true } };
}

/** A paged list (cursor or offset, pages of at most 500 unless told), of an item's path ids when the path has any. */
export function listRow<P extends string, Q extends z.ZodMiniType, E extends Extra = Record<never, never>>(path: P, cost: number | null, scopes: readonly string[], pagination: 'cursor' | 'offset', query: () => Q, cli: OperationCli, extra?: E) {
  return { method: 'GET' as const, path, cost, scopes, pagination, maxLimit: 500, ...paramsOf(path), query, ...(extra as E), cli };
}

/** A create (POST with a body), under an item's path ids when the path has any. */
export function createRow<P extends string, B extends z.ZodMiniType, E extends Extra = Record<never, never>>(path: P, cost: number | null, scopes: readonly string[], body: () => B, cli: OperationCli, extra?: E) {
  return { method: 'POST' as const, path, cost, scopes, pagination: 'none' as const, ...paramsOf(path), body, ...(extra as E), cli };
}

/** A POST on one record by its path ids that sends no body schema (archive, duplicate, a file upload). */
export function actionRow<P extends string, E extends Extra = Record<never, never>>(path: P, cost: number | null, scopes: readonly string[], cli: OperationCli, extra?: E) {
  return { method: 'POST' as const, path, cost, scopes, pagination: 'none' as const, params: pathIds(path), ...(extra as E), cli };
}

/** The query of a list that takes nothing but its page (cursor form, pages of at most 500). */
export const cursorPage = () => z.object({ ...cursorQuery(500) });
/** The query of a list that takes nothing but its page (start/limit form). */
export const offsetPage = () => z.object({ ...offsetQuery() });
