import * as z from 'zod/mini';
import type { OperationRow } from '../operation.js';
import { cursorQuery, id, offsetQuery, pathId } from '../schemas.js';
import { FOLLOWER_CHANGELOG_FIELDS } from './record-fields.js';

/** What differs between the items users follow: names, scopes, and the v1 follower record. */
export interface Followed {
  /** Path segment and command word, e.g. 'deals'. */
  area: string;
  /** 'deal', 'organization', ... for help texts. */
  noun: string;
  read: readonly string[];
  write: readonly string[];
  /** Columns and known fields of a v1 follower record. */
  v1Columns: string[];
  v1Fields: string[];
  /** The v1 list pages with start/limit (products). */
  v1Paged?: boolean;
  /** The v1 add answers 201 (products). */
  v1Created?: boolean;
  changelogSummary?: string;
}

const params = () => z.object({ id: pathId() });
const followerParams = () => z.object({ id: pathId(), follower_id: pathId() });
const userBody = () => z.object({ user_id: id() });

/**
 * The follower operations of one item type, v2 with their `--v1` forms: list, add, remove, changelog.
 * The v2 rows answer and take the same records everywhere; an area overrides what its vendor form adds.
 */
export function followerRows(t: Followed) {
  const a = /^[aeiou]/.test(t.noun) ? 'an' : 'a';
  const cmd = (verb: string) => [t.area, 'followers', verb];
  const base = `/api/v2/${t.area}/{id}/followers`;
  const baseV1 = `/api/v1/${t.area}/{id}/followers`;
  return {
    followers: {
      method: 'GET', path: base, cost: 10, scopes: t.read, pagination: 'cursor', maxLimit: 500, params, query: () => z.object({ ...cursorQuery(500) }),
      cli: { command: cmd('list'), summary: `List the users who follow ${a} ${t.noun}`, examples: [`crmctl ${t.area} followers list 1`], columns: ['user_id', 'add_time'], fields: ['user_id', 'add_time'] },
    },
    followersV1: {
      method: 'GET', path: baseV1, cost: 20, scopes: t.read, params,
      ...(t.v1Paged ? { pagination: 'offset' as const, maxLimit: 500, query: () => z.object({ ...offsetQuery() }) } : { pagination: 'none' as const }),
      cli: { command: cmd('list'), summary: 'List followers (v1 form)', examples: [`crmctl ${t.area} followers list 1`], columns: t.v1Columns, fields: t.v1Fields, switch: '--v1' },
    },
    addFollower: {
      method: 'POST', path: base, cost: 5, scopes: t.write, pagination: 'none', successStatus: 201, params, body: userBody,
      cli: { command: cmd('add'), summary: `Make a user follow ${a} ${t.noun}`, examples: [`crmctl ${t.area} followers add 1 --user-id 2`], columns: ['user_id', 'add_time'], fields: ['user_id', 'add_time'] },
    },
    addFollowerV1: {
      method: 'POST', path: baseV1, cost: 10, scopes: t.write, pagination: 'none', ...(t.v1Created ? { successStatus: 201 as const } : {}), params, body: userBody,
      cli: { command: cmd('add'), summary: 'Add a follower (v1 form)', examples: [`crmctl ${t.area} followers add 1`], columns: t.v1Columns, fields: t.v1Fields, switch: '--v1' },
    },
    removeFollower: {
      method: 'DELETE', path: `${base}/{follower_id}`, cost: 3, scopes: t.write, pagination: 'none', params: followerParams,
      cli: { command: cmd('remove'), summary: `Stop a user following ${a} ${t.noun}`, examples: [`crmctl ${t.area} followers remove 1 1`], columns: ['user_id'], fields: ['user_id'], confirm: true },
    },
    removeFollowerV1: {
      method: 'DELETE', path: `${baseV1}/{follower_id}`, cost: 6, scopes: t.write, pagination: 'none', params: followerParams,
      cli: { command: cmd('remove'), summary: 'Remove a follower (v1 form: the follower record id)', examples: [`crmctl ${t.area} followers remove 1 1`], columns: ['id'], fields: ['id'], confirm: true, switch: '--v1' },
    },
    followersChangelog: {
      method: 'GET', path: `${base}/changelog`, cost: 10, scopes: t.read, pagination: 'cursor', maxLimit: 500, params, query: () => z.object({ ...cursorQuery(500) }),
      cli: {
        command: cmd('changelog'), summary: t.changelogSummary ?? `Who started or stopped following ${a} ${t.noun}, and when`, examples: [`crmctl ${t.area} followers changelog 1`],
        columns: FOLLOWER_CHANGELOG_FIELDS, fields: FOLLOWER_CHANGELOG_FIELDS,
      },
    },
  } satisfies Record<string, OperationRow>;
}
