import type { Reader } from '../../entry/prepare.js';
import type { LiveRecord } from './live.js';

// Goals are configuration (goals.yaml) when they can be matched one to one: those that share a
// natural key with another goal (title, assignee, type and interval), or that the create would
// refuse as the account holds them, are listed here instead, with their ids named and the reason.

export const GOALS_NOT_WRITTEN = 'goals that goals.yaml cannot hold (each with the reason), listed for reference; the others are in goals.yaml';

type Obj = Record<string, unknown>;

/** The account's goals that are not written as configuration, with the ids they hold named. */
export async function goalsForReference(_reader: Reader, records: LiveRecord[], users: Array<{ id: number; email: string }>): Promise<{ goals: Obj[]; cost: number }> {
  const label = (kind: string, id: unknown) => records.find((r) => r.ck.kind === kind && String(r.id) === String(id))?.label ?? id;
  const email = (id: unknown) => users.find((u) => String(u.id) === String(id))?.email ?? id;
  const goals = records.filter((r) => r.ck.kind === 'goal' && r.unwritable).map((r) => {
    const g = r.spec;
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
      not_written: r.unwritable,
    };
  });
  // Read with the other configuration (readLive): nothing more to pay.
  return { goals, cost: 0 };
}
