// The deal resource: members a write may carry and the rules the service applies to them. A deal sits
// in a stage of a pipeline (the pipeline follows the stage; moving sets stage_change_time); its status
// decides won/lost/close times and whether a lost reason may be given; archiving stamps archive_time.
import { invalid } from '../../http/errors.js';
import type { Deal } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import { defaultVisibility } from '../roles/store.js';
import { fieldByCode } from '../../engine/fields/store.js';
import { addFollower } from '../../engine/followers.js';
import type { Input, ResourceSpec, WriteEnv } from '../../engine/resource.js';
import { r, REF, type Rule } from '../../engine/rules.js';
import { searchText } from '../shared/search-text.js';
import { DEAL_INCLUDE, v2Deal } from './present.js';
import { refuseArchivedEdit } from '../../engine/archived.js';

export const DEAL_READ = ['deals:read', 'deals:full'];
export const DEAL_WRITE = ['deals:full'];
const STATUSES = ['open', 'won', 'lost'] as const;

const activeStage = { ...REF.stage, live: (s: Record<string, unknown>) => s.is_deleted !== true };
const activePipeline = { ...REF.pipeline, live: (p: Record<string, unknown>) => p.is_deleted !== true };

/** Deal labels are the options of the deal field `label`. */
const dealLabels: Rule = r.custom((v, f, env) => {
  const ids = r.ids().parse(v, f, env) as number[];
  const known = new Set((fieldByCode(env.state, 'deal', 'label')?.options ?? []).map((o) => o.id));
  const bad = ids.filter((id) => !known.has(id));
  if (bad.length) throw invalid(f, `${bad.join(', ')} ${bad.length === 1 ? 'is not a deal label' : 'are not deal labels'} (labels: ${[...known].join(', ') || 'none'})`);
  return ids;
});

const currency: Rule = r.custom((v, f, env) => {
  if (typeof v !== 'string' || !env.state.currencies.find((c) => c.code === v && c.active_flag)) throw invalid(f, 'must be an active 3-letter currency code of the company');
  return v;
});

export const DEAL_MEMBERS: Record<string, Rule> = {
  title: r.string({ max: 255 }),
  owner_id: r.ref(REF.user),
  person_id: r.nullable(r.ref(REF.person)),
  org_id: r.nullable(r.ref(REF.organization)),
  pipeline_id: r.int({ min: 1, ref: activePipeline }),
  stage_id: r.int({ min: 1, ref: activeStage }),
  value: r.number({ min: 0 }),
  currency,
  is_archived: r.bool(),
  archive_time: r.dateTime(),
  status: r.oneOf(STATUSES),
  probability: r.nullable(r.number({ min: 0, max: 100 })),
  lost_reason: r.nullable(r.string({ max: 255 })),
  visible_to: r.visibleTo(),
  close_time: r.nullable(r.dateTime()),
  won_time: r.dateTime(),
  lost_time: r.dateTime(),
  expected_close_date: r.nullable(r.date()),
  label_ids: dealLabels,
  custom_fields: r.custom((v) => v),
};

const firstStage = (state: SandboxState, pipelineId: number) =>
  state.stages.filter((s) => s.pipeline_id === pipelineId && !s.is_deleted).sort((a, b) => a.order_nr - b.order_nr || a.id - b.id)[0];

export const defaultPipeline = (state: SandboxState) =>
  state.pipelines.find((p) => p.is_default) ?? [...state.pipelines.all()].sort((a, b) => a.order_nr - b.order_nr)[0];

/** The stage a write puts the deal in: the stage wins and its pipeline follows; a pipeline alone means its first stage. */
export function placement(state: SandboxState, input: Input, current?: Deal): { stage_id: number; pipeline_id: number } | undefined {
  const stageId = input.stage_id as number | undefined, pipelineId = input.pipeline_id as number | undefined;
  if (stageId !== undefined) {
    const stage = state.stages.get(stageId)!;
    if (pipelineId !== undefined && pipelineId !== stage.pipeline_id) throw invalid('stage_id', `stage ${stageId} is not in pipeline ${pipelineId}`);
    return { stage_id: stageId, pipeline_id: stage.pipeline_id };
  }
  if (pipelineId !== undefined) {
    if (current && current.pipeline_id === pipelineId) return undefined;
    const first = firstStage(state, pipelineId);
    if (!first) throw invalid('pipeline_id', `pipeline ${pipelineId} has no stages`);
    return { stage_id: first.id, pipeline_id: pipelineId };
  }
  if (current) return undefined;
  const p = defaultPipeline(state);
  const first = p ? firstStage(state, p.id) : undefined;
  if (!p || !first) throw invalid('stage_id', 'the company has no pipeline with stages to put the deal in');
  return { stage_id: first.id, pipeline_id: p.id };
}

/** Times and reasons that follow the status. */
function statusPatch(env: WriteEnv, input: Input, current?: Deal): Partial<Deal> {
  const status = (input.status as Deal['status'] | undefined) ?? current?.status ?? 'open';
  const changed = current === undefined || (input.status !== undefined && input.status !== current.status);
  const out: Partial<Deal> = {};
  if (input.lost_reason != null && status !== 'lost') throw invalid('lost_reason', 'can only be given for a lost deal (status lost)');
  if (input.won_time !== undefined && status !== 'won') throw invalid('won_time', 'can only be given for a won deal (status won)');
  if (input.lost_time !== undefined && status !== 'lost') throw invalid('lost_time', 'can only be given for a lost deal (status lost)');
  if (input.close_time != null && status === 'open') throw invalid('close_time', 'can only be given for a won or lost deal');
  if (changed) {
    out.status = status;
    if (status === 'open') Object.assign(out, { won_time: null, lost_time: null, close_time: null, lost_reason: null });
    if (status === 'won') {
      const t = (input.won_time as string | undefined) ?? env.now;
      Object.assign(out, { won_time: t, lost_time: null, lost_reason: null, close_time: (input.close_time as string | undefined) ?? t });
      if (!current?.first_won_time) out.first_won_time = t;
    }
    if (status === 'lost') {
      const t = (input.lost_time as string | undefined) ?? env.now;
      Object.assign(out, { lost_time: t, won_time: null, close_time: (input.close_time as string | undefined) ?? t, lost_reason: (input.lost_reason as string | null | undefined) ?? null });
    }
  } else {
    for (const k of ['won_time', 'lost_time', 'close_time', 'lost_reason'] as const) if (input[k] !== undefined) (out as Record<string, unknown>)[k] = input[k];
  }
  return out;
}

function archivePatch(env: WriteEnv, input: Input, current?: Deal): Partial<Deal> {
  if (input.archive_time !== undefined && !((input.is_archived as boolean | undefined) ?? current?.is_archived)) throw invalid('archive_time', 'needs is_archived true');
  if (input.is_archived === undefined) return input.archive_time !== undefined ? { archive_time: input.archive_time } : {};
  return input.is_archived ? { is_archived: true, archive_time: (input.archive_time as string | undefined) ?? (current?.is_archived ? current.archive_time : env.now) } : { is_archived: false, archive_time: null };
}

export const dealSpec: ResourceSpec<Deal> = {
  object: 'deal',
  collection: (s) => s.deals,
  notFound: 'Deal not found',
  base: '/api/v2/deals',
  scopes: { read: DEAL_READ, write: DEAL_WRITE, search: ['deals:read', 'deals:full', 'search:read'] },
  fields: 'deal',
  owned: true,
  changelog: true,
  members: DEAL_MEMBERS,
  required: ['title'],
  build: (env, input) => {
    const { state } = env;
    const place = placement(state, input)!;
    const owner = (input.owner_id as number | undefined) ?? env.userId;
    const d = {
      title: input.title as string, owner_id: owner, creator_user_id: env.userId,
      person_id: (input.person_id as number | null | undefined) ?? null, org_id: (input.org_id as number | null | undefined) ?? null,
      ...place, value: (input.value as number | undefined) ?? 0,
      currency: (input.currency as string | undefined) ?? state.users.get(owner)?.default_currency ?? state.company.default_currency,
      add_time: env.now, update_time: env.now, stage_change_time: null, is_deleted: false, is_archived: false, archive_time: null,
      status: 'open', probability: (input.probability as number | null | undefined) ?? null, lost_reason: null,
      visible_to: (input.visible_to as number | undefined) ?? defaultVisibility(state, env.req.user, 'deal'),
      close_time: null, won_time: null, lost_time: null, expected_close_date: (input.expected_close_date as string | null | undefined) ?? null,
      label_ids: (input.label_ids as number[] | undefined) ?? [], origin: 'API', origin_id: null, channel: null, channel_id: null, source_lead_id: null,
      custom_fields: Object.fromEntries(Object.entries((input.custom_fields ?? {}) as Record<string, unknown>).filter(([, v]) => v !== null)),
    } as Omit<Deal, 'id'>;
    return { ...d, ...statusPatch(env, input), ...archivePatch(env, input) } as Omit<Deal, 'id'>;
  },
  change: (env, d, input) => {
    if (d.is_archived) refuseArchivedEdit('deal', d.id, input);
    const { custom_fields: _c, stage_id: _s, pipeline_id: _p, status: _st, won_time: _w, lost_time: _l, close_time: _ct, lost_reason: _lr, is_archived: _a, archive_time: _at, ...plain } = input;
    const patch: Partial<Deal> = { ...(plain as Partial<Deal>), ...statusPatch(env, input, d), ...archivePatch(env, input, d) };
    const place = placement(env.state, input, d);
    if (place && place.stage_id !== d.stage_id) Object.assign(patch, place, { stage_change_time: env.now });
    return patch;
  },
  remove: (env, d) => {
    env.state.deals.markDeleted(d.id, { is_deleted: true, update_time: env.now, delete_time: env.now } as Partial<Deal>, { userId: env.userId });
  },
  after: (env, d, action) => {
    // The owner follows a new deal (as in the web app).
    if (action === 'create') addFollower(env.state, 'deal', d.id, d.owner_id, env.userId, env.now);
  },
  present: (state, d, o) => v2Deal(state, d, o),
  include: DEAL_INCLUDE,
  list: {
    rows: (state, q, { byFilter }) => {
      const statuses = q.list('status');
      for (const s of statuses ?? []) if (!['open', 'won', 'lost', 'deleted'].includes(s)) throw invalid('status', 'must be a comma list of open, won, lost, deleted');
      const live = state.deals.filter((d) => !d.is_archived);
      // The documents: status "is ignored" when filter_id is given (the filter decides).
      if (!statuses || byFilter) return live;
      // deleted: deals deleted in the last 30 days (the vendor's documents).
      const cutoff = state.now() - 30 * 86_400_000;
      const deleted = statuses.includes('deleted') ? state.deals.allWithDeleted().filter((d) => state.deals.isDeleted(d.id) && Date.parse(String(d.delete_time ?? d.update_time)) >= cutoff) : [];
      return [...live.filter((d) => statuses.includes(d.status)), ...deleted].sort((a, b) => a.id - b.id);
    },
    filters: {
      owner_id: { kind: 'int', test: (d, v: number) => d.owner_id === v },
      person_id: { kind: 'int', test: (d, v: number) => d.person_id === v },
      org_id: { kind: 'int', test: (d, v: number) => d.org_id === v },
      pipeline_id: { kind: 'int', test: (d, v: number) => d.pipeline_id === v },
      stage_id: { kind: 'int', test: (d, v: number) => d.stage_id === v },
    },
    filterType: 'deals',
    ids: true,
    updated: true,
  },
  search: {
    fields: ['custom_fields', 'notes', 'title'],
    include: ['deal.cc_email'],
    filters: {
      person_id: { kind: 'int', test: (d, v: number) => d.person_id === v },
      organization_id: { kind: 'int', test: (d, v: number) => d.org_id === v },
      status: { kind: 'string', test: (d, v: string) => d.status === v },
    },
    // The vendor's documents: at most 2000 deals are found per person, organization or status.
    capped: ['person_id', 'organization_id', 'status'],
    match: (state, d, term, exact, fields) => searchText(state, {
      term, exact, fields, title: fields.has('title') ? [d.title] : [], notes: state.notes.filter((n) => n.deal_id === d.id).map((n) => n.content),
      entity: 'deal', custom: d.custom_fields,
    }),
    item: (state, d, hit, include) => {
      const stage = state.stages.getAny(d.stage_id);
      const person = d.person_id ? state.persons.getAny(d.person_id) : undefined;
      const org = d.org_id ? state.organizations.getAny(d.org_id) : undefined;
      const item: Record<string, unknown> = {
        id: d.id, type: 'deal', title: d.title, value: d.value, currency: d.currency, status: d.status, visible_to: d.visible_to,
        owner: { id: d.owner_id }, stage: stage ? { id: stage.id, name: stage.name } : null, person: person ? { id: person.id, name: person.name } : null,
        organization: org ? { id: org.id, name: org.name } : null, custom_fields: hit.custom, notes: hit.notes, is_archived: d.is_archived,
      };
      if (include.includes('deal.cc_email')) item.cc_email = `${state.company.domain}+deal${d.id}@pipedrivemail.com`;
      return item;
    },
  },
};

