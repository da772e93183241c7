import { ASSIGNEE_TYPES, goalOps } from '../../api/operations/goals.js';
import { read, type Reader } from '../../api/prepare.js';
import type { LiveRecord } from './live.js';

// Goals are not written as configuration yet: their type parameters hold pipeline, stage and
// activity type ids and their assignee a user, team or company id, which a goal kind would have to
// write as references inside nested values, and goals have no natural key (titles repeat). Pull lists
// them in reference.yaml, with those ids named, so nothing of the account's setup goes unmentioned.

export const GOALS_NOT_WRITTEN = 'goals are not configuration files yet (their type parameters and assignee refer to pipelines, stages, activity types and users by id, and titles need not be unique), so they are listed for reference; create them with crmctl goals create';

type Obj = Record<string, unknown>;

/** The account's goals with the ids they hold named (pipelines, stages, activity types, users by e-mail). */
export async function goalsForReference(reader: Reader, records: LiveRecord[], users: Array<{ id: number; email: string }>): Promise<{ goals: Obj[]; cost: number }> {
  // Without a filter find answers the caller's goals only; an assignee type makes it everyone's.
  const seen = new Map<string, Obj>();
  for (const t of ASSIGNEE_TYPES) {
    const answer = await read(reader, goalOps.find, { query: { 'assignee.type': t } });
    for (const g of (Array.isArray(answer) ? answer : Object.values((answer ?? {}) as Obj).find(Array.isArray) ?? []) as Obj[]) seen.set(String(g.id), g);
  }
  const list = [...seen.values()];
  const label = (kind: string, id: unknown) => records.find((r) => r.ck.kind === kind && String(r.id) === String(id))?.label ?? id;
  const email = (id: unknown) => users.find((u) => String(u.id) === String(id))?.email ?? id;
  const goals = list.map((g) => {
    const type = (g.type ?? {}) as { name?: unknown; params?: Obj | null };
    const p = type.params ?? {};
    const ids = (v: unknown, kind: string) => (Array.isArray(v) ? v.map((x) => label(kind, x)) : v);
    const params: Obj = {};
    if (p.pipeline_id !== undefined) params.pipelines = ids(p.pipeline_id, 'pipeline');
    if (p.stage_id !== undefined) params.stage = label('stage', p.stage_id);
    if (p.activity_type_id !== undefined) params.activity_types = ids(p.activity_type_id, 'activity-type');
    const a = (g.assignee ?? {}) as { id?: unknown; type?: unknown };
    return {
      title: g.title ?? null,
      type: type.name ?? null,
      ...(Object.keys(params).length ? { params } : {}),
      assignee: { type: a.type ?? null, who: a.type === 'person' ? email(a.id) : a.type === 'team' ? label('team', a.id) : (a.id ?? null) },
      expected_outcome: g.expected_outcome ?? null,
      interval: g.interval ?? null,
      duration: g.duration ?? null,
    };
  }).sort((x, y) => String(x.title).localeCompare(String(y.title)));
  return { goals, cost: (goalOps.find.cost ?? 0) * ASSIGNEE_TYPES.length };
}
