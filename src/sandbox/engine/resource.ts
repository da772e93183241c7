// A resource of the service described once: where it lives, who may read and write it, the members a
// write may carry (rules.ts), how a record is built and changed, how it is presented, how lists filter
// it and how search ranks it. crud.ts and search.ts turn the description into routes; an area module
// adds code only for behaviour that is really its own (a deal's stage, a product's prices, ...).
import type { Query } from '../http/query.js';
import type { Collection, Rec } from '../store/collection.js';
import type { EventObject } from '../store/events.js';
import type { SandboxState } from '../store/state.js';
import type { HandlerContext, SandboxRequest } from '../types.js';
import type { FieldEntity } from './fields/store.js';
import type { Rule, RuleEnv } from './rules.js';

export interface WriteEnv extends RuleEnv {
  ctx: HandlerContext;
  req: SandboxRequest;
  /** ISO time of this write. */
  now: string;
}

export interface PresentOptions {
  include: string[];
  customKeys?: string[];
  optionLabels: boolean;
  labels: boolean;
}

export type Input = Record<string, unknown>;

export interface ListFilter<R> {
  /** How the query value is read. */
  kind: 'int' | 'string' | 'bool' | 'ints';
  test: (rec: R, value: never, state: SandboxState) => boolean;
  /** Ignored when filter_id is given (the vendor's documents say so for most list filters). */
  overriddenByFilter?: boolean;
}

export interface ListSpec<R> {
  /** Records the list starts from (default: every live record). `byFilter`: filter_id was given, so
   * query members the documents say filter_id overrides (a deal's status) must be ignored. */
  rows?: (state: SandboxState, q: Query, opts: { byFilter: boolean }) => R[];
  filters?: Record<string, ListFilter<R>>;
  sortBy?: readonly string[];
  /** Saved-filter type evaluated by filter_id (filters area). */
  filterType?: string;
  /** Accepts ids (comma list of up to 100). */
  ids?: boolean;
  /** Accepts updated_since / updated_until. */
  updated?: boolean;
  /** Largest page (default 500). */
  maxLimit?: number;
}

export interface SearchSpec<R> {
  /** `fields` values and the default set. */
  fields: readonly string[];
  /** Extra query filters (person_id, organization_id, ...). */
  filters?: Record<string, ListFilter<R>>;
  /** Names of filters that, when given, cap what is found at FOUND_PER_LINK (search.ts). */
  capped?: readonly string[];
  /** Scores a record (0 = no match) and collects what matched. */
  match: (state: SandboxState, rec: R, term: string, exact: boolean, fields: ReadonlySet<string>) => { score: number; custom?: string[]; notes?: string[] };
  /** The `item` of a search result. */
  item: (state: SandboxState, rec: R, hit: { custom: string[]; notes: string[] }, include: readonly string[]) => Record<string, unknown>;
  /** include_fields values the search accepts. */
  include?: readonly string[];
  maxLimit?: number;
}

export interface ResourceSpec<R extends Rec & { id: number }> {
  /** Event object (webhooks) and the v2 search item type. */
  object: EventObject;
  collection: (state: SandboxState) => Collection<R>;
  /** Message of a missing record, e.g. "Deal not found". */
  notFound: string;
  /** v2 collection path, e.g. /api/v2/deals. */
  base: string;
  scopes: { read: string[]; write: string[]; search?: string[] };
  /** Status of a successful create (the vendor documents 201 for some). */
  createStatus?: 200 | 201;
  costs?: Partial<Record<'list' | 'get' | 'create' | 'update' | 'delete' | 'search', number>>;
  /** Updates are recorded for the v1 changelog (changelog.ts). */
  changelog?: boolean;
  /** Custom fields live in `custom_fields` and are checked against this item type's field metadata. */
  fields?: FieldEntity;
  /** Records with owner_id/visible_to: reads check the caller may see them. */
  owned?: boolean;
  /** Records attached to deals, leads, persons or organizations: seen only by who may see those items (access.ts). */
  attached?: boolean;
  /** Members of create and update bodies. */
  members: Record<string, Rule>;
  required?: readonly string[];
  /** Members only a create may carry / only an update may carry. */
  createOnly?: readonly string[];
  updateOnly?: readonly string[];
  /** Builds a new record from a checked body (custom_fields already parsed). */
  build: (env: WriteEnv, input: Input) => Omit<R, 'id'>;
  /** The patch an update makes (default: the checked body itself). Runs after the body was checked. */
  change?: (env: WriteEnv, rec: R, input: Input) => Partial<R>;
  /** Deletion (default: mark deleted with is_deleted true). */
  remove?: (env: WriteEnv, rec: R) => void;
  /** After a create or an update committed (follow-up writes: a first follower, a deal's value). */
  after?: (env: WriteEnv, rec: R, action: 'create' | 'update') => void;
  present: (state: SandboxState, rec: R, o: PresentOptions) => Record<string, unknown>;
  /** include_fields values reads accept (`present` computes the asked ones: engine/stats.ts). */
  include?: readonly string[];
  list?: ListSpec<R>;
  search?: SearchSpec<R>;
}

export type AnySpec = ResourceSpec<Rec & { id: number }>;
