import type { Operation } from '../../api/operation.js';
import { activityTypeOps } from '../../api/operations/activity-types.js';
import { boardOps } from '../../api/operations/boards.js';
import { dealFieldOps } from '../../api/operations/deal-fields.js';
import { filterOps } from '../../api/operations/filters.js';
import { ASSIGNEE_TYPES, goalOps } from '../../api/operations/goals.js';
import { leadLabelOps } from '../../api/operations/lead-labels.js';
import { legacyTeamOps } from '../../api/operations/legacy-teams.js';
import { organizationFieldOps } from '../../api/operations/organization-fields.js';
import { personFieldOps } from '../../api/operations/person-fields.js';
import { phaseOps } from '../../api/operations/phases.js';
import { pipelineOps } from '../../api/operations/pipelines.js';
import { productFieldOps } from '../../api/operations/product-fields.js';
import { projectFieldOps } from '../../api/operations/project-fields.js';
import { roleOps } from '../../api/operations/roles.js';
import { stageOps } from '../../api/operations/stages.js';
import { webhookOps } from '../../api/operations/webhooks.js';
import { compareFilter, NAMES, type WhereNames } from './filter-names.js';

/** A live record as the service lists it, plus (for child kinds) the id of its parent. */
export type Live = Record<string, unknown>;

/** How one list is read: the operation and its query (phases are listed per board, settings per role). */
export interface ListRead {
  op: Operation;
  query?: Record<string, unknown>;
  params?: Record<string, unknown>;
}

/**
 * A kind of configuration: what `pull` writes and `plan`/`apply` match with the account by natural
 * key. The spec keys are the create operation's body members the files hold; `refs` name the keys
 * that hold the id of another configuration record (written `${ref:<handle>.id}` by pull).
 */
export interface ConfigKind {
  /** The fixture kind (src/apply-engine/kinds.ts) that creates, updates and removes it. */
  kind: string;
  /** File it is written to (pipelines.yaml, fields.yaml, ...). */
  group: string;
  /** Spec keys pulled and compared, in the order they are written. */
  keys: string[];
  /** Spec keys holding the id of another kind's record: stage `pipeline_id` → pipeline. */
  refs?: Record<string, string>;
  /** Parent kind for kinds addressed under a parent (role-setting under role: `role:` in the file). */
  parent?: { key: string; param: string; kind: string };
  /** Reads: lists of the kind (for child kinds, one per parent record). */
  reads(parents: Live[]): ListRead[];
  /** Turns one list answer into live records (settings object → one record per setting). */
  explode?(answer: unknown, read: ListRead): Live[];
  /** Records of several reads that make one (a role's visible and hidden pipelines). */
  combine?(records: Live[]): Live[];
  /** Spec keys holding a user id or a list of them: written as ${user:<email>} (users differ per account). */
  userRefs?: string[];
  /**
   * Ids inside a spec value (one id or a list of them), written as references one by one: to
   * another kind's record, or to a user by e-mail (kind USER_REF); `when` limits it to the records
   * where the value is of that kind (a goal's assignee is a user or a team).
   */
  nestedRefs?: NestedRef[];
  /** The natural key in words, for messages: `pipeline and name`. */
  keyWords: string;
  /**
   * How to tell apart records of the account that share a natural key (they cannot be matched one
   * to one, so pull lists them in reference.yaml, sharedKeyReason); unset: rename them.
   */
  sharedKeyFix?: string;
  /**
   * The live spec as it is compared with the file's (references resolved): a role's pipeline lists
   * are sets, and pipelines the file does not name are not its business.
   */
  compareAs?(live: Record<string, unknown>, file: Record<string, unknown>, rec: Live, translated?: unknown): Record<string, unknown>;
  /** Spec keys compared even when the file leaves them out (a filter's OR group: its absence is a difference). */
  alwaysCompared?: string[];
  /** Records that are not configuration (built-in fields). */
  keep?(rec: Live): boolean;
  /** Live value of a spec key as the files write it (options without their ids). */
  value?(rec: Live, key: string): unknown;
  /** The natural key, from spec values with references resolved to ids (and parent ids). */
  key(spec: Record<string, unknown>, parentId?: unknown): string;
  /** Words for the handle and for plan lines, from the record and the names of what it refers to. */
  words(spec: Record<string, unknown>, nameOf: (kind: string, id: unknown) => string | undefined, parentName?: string): string[];
}

/** The kind of a nested reference to a user: written ${user:<email>}. */
export const USER_REF = '$user';

export interface NestedRef {
  path: string[];
  kind: string;
  when?(spec: Record<string, unknown>): boolean;
}

/** The value at a path inside a spec (undefined when a step is missing). */
export function atPath(spec: Record<string, unknown>, path: string[]): unknown {
  return path.reduce<unknown>((o, p) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[p] : undefined), spec);
}

/** The ids a spec holds of other records through its nested references: [kind, id] pairs. */
export function nestedIds(ck: ConfigKind, spec: Record<string, unknown>): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const r of ck.nestedRefs ?? []) {
    if (r.when && !r.when(spec)) continue;
    const v = atPath(spec, r.path);
    for (const id of Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]) out.push([r.kind, id]);
  }
  return out;
}

/** Key on a child record holding its parent's id (a role setting's role). */
export const PARENT_KEY = '$parent';

const K = (...parts: unknown[]) => parts.map((p) => String(p ?? '')).join('\u0000');

const field = (kind: string, ops: { list: Operation }): ConfigKind => ({
  kind,
  group: 'fields',
  keys: ['field_name', 'field_type', 'options'],
  reads: () => [{ op: ops.list }],
  keep: (r) => r.is_custom_field === true,
  // Option ids differ per account: the files hold the labels, in the account's order.
  value: (r, k) => (k === 'options' ? (Array.isArray(r.options) && r.options.length ? r.options.map((o) => ({ label: (o as Live).label })) : undefined) : r[k]),
  key: (s) => K(s.field_name),
  keyWords: 'field name',
  words: (s) => [String(s.field_name)],
});

/** Conditions as the create takes them: the service adds flags (json_value_flag) and nulls the files need not hold. */
function conditionsOf(c: unknown): unknown {
  if (!c || typeof c !== 'object') return c;
  const top = c as { glue?: unknown; conditions?: unknown };
  if (!Array.isArray(top.conditions)) return c;
  return {
    glue: top.glue,
    conditions: top.conditions.map((g) => ({
      glue: (g as Live).glue,
      conditions: ((g as Live).conditions as Live[] ?? []).map((x) => {
        const out: Live = { object: x.object, field_id: x.field_id, operator: x.operator };
        if (x.value !== null && x.value !== undefined) out.value = x.value;
        if (x.extra_value !== null && x.extra_value !== undefined) out.extra_value = x.extra_value;
        return out;
      }),
    })),
  };
}

const assigneeType = (s: Record<string, unknown>) => (s.assignee as Live | undefined)?.type;

/** Members of an object the goal create takes, in its order; absent ones left out. */
function pick(v: unknown, members: string[]): Live | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Live;
  return Object.fromEntries(members.filter((m) => o[m] !== undefined).map((m) => [m, o[m]]));
}

/** A goal's values as the create takes them (null pipeline and activity-type lists mean all: kept). */
function goalValue(r: Live, k: string): unknown {
  if (k === 'assignee') return pick(r.assignee, ['type', 'id']);
  if (k === 'expected_outcome') {
    const e = pick(r.expected_outcome, ['target', 'tracking_metric', 'currency_id']);
    if (e && e.currency_id === null) delete e.currency_id;
    return e;
  }
  if (k === 'duration') return pick(r.duration, ['start', 'end']);
  if (k === 'type') {
    const t = (r.type ?? {}) as Live;
    const params = pick(t.params, ['pipeline_id', 'stage_id', 'activity_type_id']);
    if (params && params.stage_id === null) delete params.stage_id;
    return { name: t.name, ...(params && Object.keys(params).length ? { params } : {}) };
  }
  return r[k];
}

/** The configuration kinds, in dependency order (a kind's references point to kinds before it). */
export const CONFIG_KINDS: ConfigKind[] = [
  {
    kind: 'pipeline', group: 'pipelines', keys: ['name', 'is_deal_probability_enabled'],
    reads: () => [{ op: pipelineOps.list }],
    key: (s) => K(s.name),
    keyWords: 'name',
    words: (s) => [String(s.name)],
  },
  {
    // Stage order is the order of creation (the create takes no order): pull writes them in pipeline order.
    kind: 'stage', group: 'pipelines', keys: ['pipeline_id', 'name', 'deal_probability', 'is_deal_rot_enabled', 'days_to_rotten'], refs: { pipeline_id: 'pipeline' },
    reads: () => [{ op: stageOps.list }],
    key: (s) => K(s.pipeline_id, s.name),
    keyWords: 'pipeline and name',
    words: (s, nameOf) => [nameOf('pipeline', s.pipeline_id) ?? String(s.pipeline_id), String(s.name)],
  },
  field('deal-field', dealFieldOps),
  field('person-field', personFieldOps),
  field('org-field', organizationFieldOps),
  field('product-field', productFieldOps),
  field('project-field', projectFieldOps),
  {
    kind: 'lead-label', group: 'labels', keys: ['name', 'color'],
    reads: () => [{ op: leadLabelOps.list }],
    key: (s) => K(s.name),
    keyWords: 'name',
    words: (s) => [String(s.name)],
  },
  {
    kind: 'activity-type', group: 'activity-types', keys: ['name', 'icon_key', 'color'],
    reads: () => [{ op: activityTypeOps.list }],
    // Inactive (deleted) types stay listed by the service; they are not configuration.
    keep: (r) => r.active_flag !== false,
    key: (s) => K(s.name),
    keyWords: 'name',
    words: (s) => [String(s.name)],
  },
  {
    kind: 'role', group: 'roles', keys: ['name', 'parent_role_id'], refs: { parent_role_id: 'role' },
    reads: () => [{ op: roleOps.list }],
    key: (s) => K(s.name),
    keyWords: 'name',
    words: (s) => [String(s.name)],
  },
  {
    kind: 'role-setting', group: 'roles', keys: ['setting_key', 'value'], parent: { key: 'role', param: 'id', kind: 'role' },
    reads: (roles) => roles.map((r) => ({ op: roleOps.settingsList, params: { id: r.id } })),
    explode: (answer, read) => Object.entries((answer ?? {}) as Live)
      .filter(([k]) => k.endsWith('_default_visibility'))
      .map(([k, v]) => ({ setting_key: k, value: v, [PARENT_KEY]: read.params!.id })),
    key: (s, parent) => K(parent, s.setting_key),
    keyWords: 'role and setting key',
    words: (s, _nameOf, parentName) => [parentName ?? '?', String(s.setting_key)],
  },
  {
    // Both lists are written, so that apply makes the role see exactly these pipelines.
    kind: 'role-pipelines', group: 'roles', keys: ['visible_pipeline_ids'], parent: { key: 'role', param: 'id', kind: 'role' },
    nestedRefs: [{ path: ['visible_pipeline_ids', 'add'], kind: 'pipeline' }, { path: ['visible_pipeline_ids', 'remove'], kind: 'pipeline' }],
    reads: (roles) => roles.flatMap((r) => [true, false].map((visible) => ({ op: roleOps.pipelinesList, params: { id: r.id }, query: { visible } }))),
    explode: (answer, read) => {
      const ids = ((answer ?? {}) as Live).pipeline_ids;
      return [{ [PARENT_KEY]: read.params!.id, [read.query!.visible ? 'add' : 'remove']: Array.isArray(ids) ? [...ids].sort((a, b) => Number(a) - Number(b)) : [] }];
    },
    combine: (records) => {
      const byRole = new Map<unknown, Live>();
      for (const r of records) byRole.set(r[PARENT_KEY], { ...byRole.get(r[PARENT_KEY]), ...r });
      return [...byRole.values()].map((r) => {
        const lists = Object.fromEntries((['add', 'remove'] as const).filter((k) => Array.isArray(r[k]) && (r[k] as unknown[]).length).map((k) => [k, r[k]]));
        return { [PARENT_KEY]: r[PARENT_KEY], ...(Object.keys(lists).length ? { visible_pipeline_ids: lists } : {}) };
      }).filter((r) => r.visible_pipeline_ids);
    },
    compareAs: (live, file) => {
      const l = (live.visible_pipeline_ids ?? {}) as Record<string, unknown[] | undefined>;
      const f = (file.visible_pipeline_ids ?? {}) as Record<string, unknown[] | undefined>;
      const named = [...(f.add ?? []), ...(f.remove ?? [])].map(String);
      const side = (k: 'add' | 'remove') => {
        const have = new Set((l[k] ?? []).map(String).filter((id) => named.includes(id)));
        // In the file's order when the sets are equal, so that only a real difference shows.
        const wanted = (f[k] ?? []).map(String);
        return wanted.length === have.size && wanted.every((id) => have.has(id)) ? f[k] : (l[k] ?? []).filter((id) => named.includes(String(id)));
      };
      const out = Object.fromEntries((['add', 'remove'] as const).map((k) => [k, side(k)]).filter(([, v]) => (v as unknown[] | undefined)?.length));
      return { ...live, visible_pipeline_ids: out };
    },
    key: (_s, parent) => K(parent),
    keyWords: 'role',
    words: (_s, _nameOf, parentName) => [parentName ?? '?', 'pipelines'],
  },
  {
    // The password is never read into a file: the files may give it as ${env:VAR} (docs/config-as-code.md).
    kind: 'webhook', group: 'webhooks', keys: ['name', 'event_action', 'event_object', 'subscription_url', 'http_auth_user', 'version'],
    reads: () => [{ op: webhookOps.list }],
    // A file that gives the password is compared with the one the account answers (the match redacts both to a hash).
    compareAs: (live, file, rec) => ('http_auth_password' in file && rec.http_auth_password !== undefined ? { ...live, http_auth_password: rec.http_auth_password } : live),
    key: (s) => K(s.event_action, s.event_object, s.subscription_url),
    keyWords: 'event action, event object and URL',
    words: (s) => [typeof s.name === 'string' ? s.name : `${String(s.event_action)}.${String(s.event_object)}`],
  },
  {
    // Members are a set: compared regardless of order.
    kind: 'team', group: 'teams', keys: ['name', 'description', 'manager_id', 'users'], userRefs: ['manager_id', 'users'],
    reads: () => [{ op: legacyTeamOps.list }],
    keep: (r) => r.deleted_flag !== 1 && r.deleted_flag !== true,
    compareAs: (live, file) => {
      const l = Array.isArray(live.users) ? live.users.map(String) : [];
      const f = Array.isArray(file.users) ? file.users.map(String) : [];
      return l.length === f.length && f.every((x) => l.includes(x)) ? { ...live, users: file.users } : live;
    },
    key: (s) => K(s.name),
    keyWords: 'name',
    words: (s) => [String(s.name)],
  },
  {
    // Conditions by name (field ids differ per account); `conditions` only in reference.yaml, for what names cannot write.
    kind: 'filter', group: 'filters', keys: ['name', 'type', 'where', 'or_where', 'conditions'],
    reads: () => [{ op: filterOps.list }],
    keep: (r) => r.temporary_flag !== true && r.active_flag !== false,
    value: (r, k) => {
      const names = r[NAMES] as WhereNames | undefined;
      if (k === 'where') return names?.where;
      if (k === 'or_where') return names?.or_where.length ? names.or_where : undefined;
      if (k === 'conditions') return names ? undefined : conditionsOf(r.conditions);
      return r[k];
    },
    compareAs: (live, file, rec, translated) => compareFilter(live, file, rec, translated),
    alwaysCompared: ['or_where'],
    key: (s) => K(s.type, s.name),
    keyWords: 'type and name',
    words: (s) => [String(s.type), String(s.name)],
  },
  {
    kind: 'board', group: 'projects', keys: ['name', 'order_nr'],
    reads: () => [{ op: boardOps.list }],
    key: (s) => K(s.name),
    keyWords: 'name',
    words: (s) => [String(s.name)],
  },
  {
    kind: 'phase', group: 'projects', keys: ['board_id', 'name', 'order_nr'], refs: { board_id: 'board' },
    reads: (boards) => boards.map((b) => ({ op: phaseOps.list, query: { board_id: b.id } })),
    key: (s) => K(s.board_id, s.name),
    keyWords: 'board and name',
    words: (s, nameOf) => [nameOf('board', s.board_id) ?? String(s.board_id), String(s.name)],
  },
  {
    // Only what the create and update take is compared (not is_active, owner_id, report_ids).
    kind: 'goal', group: 'goals', keys: ['title', 'assignee', 'type', 'expected_outcome', 'duration', 'interval'],
    nestedRefs: [
      { path: ['type', 'params', 'pipeline_id'], kind: 'pipeline' },
      { path: ['type', 'params', 'stage_id'], kind: 'stage' },
      { path: ['type', 'params', 'activity_type_id'], kind: 'activity-type' },
      { path: ['assignee', 'id'], kind: USER_REF, when: (s) => assigneeType(s) === 'person' },
      { path: ['assignee', 'id'], kind: 'team', when: (s) => assigneeType(s) === 'team' },
    ],
    // Without a filter find answers the caller's goals only; an assignee type makes it everyone's.
    reads: () => ASSIGNEE_TYPES.map((t) => ({ op: goalOps.find, query: { 'assignee.type': t } })),
    combine: (records) => [...new Map(records.map((r) => [String(r.id), r])).values()],
    value: (r, k) => goalValue(r, k),
    sharedKeyFix: 'give them different titles',
    key: (s) => K(s.title, assigneeType(s), (s.assignee as Live | undefined)?.id, (s.type as Live | undefined)?.name, s.interval),
    keyWords: 'title, assignee, type and interval',
    words: (s) => [String(s.title)],
  },
];

export const CONFIG_KIND_NAMES = CONFIG_KINDS.map((k) => k.kind);

/**
 * Why records of the account that share a natural key are not configuration: which file record
 * means which of them cannot be told, so pull lists them in reference.yaml with this reason.
 */
export function sharedKeyReason(ck: ConfigKind): string {
  return `another ${ck.kind} of the account has the same ${ck.keyWords}, so neither can be matched with a file record; ${ck.sharedKeyFix ?? 'rename all but one of them'} to pull them as configuration`;
}

export function configKind(kind: string): ConfigKind | undefined {
  return CONFIG_KINDS.find((k) => k.kind === kind);
}

/** Which kind's live records a child kind's reads need (phases need boards, settings need roles). */
export function readsFrom(k: ConfigKind): string | undefined {
  if (k.parent) return k.parent.kind;
  return k.kind === 'phase' ? 'board' : undefined;
}
