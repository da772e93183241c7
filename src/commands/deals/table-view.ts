import type { Context } from '../../core/context.js';
import { derivedView } from '../table-view.js';

/**
 * A deal as a person reads it in a table: value with its currency, the stage and owner by name.
 * Table, TSV and CSV show them by default and --fields may name them; json and ndjson keep the
 * service's records. Names come from two reads per command (stages 5, users 20 cost units), not one per deal.
 */
export const DEAL_TABLE_COLUMNS = ['id', 'title', 'value', 'stage', 'status', 'owner'];

export const dealTableView = derivedView({ columns: DEAL_TABLE_COLUMNS, derived: ['value', 'stage', 'owner', 'labels'], present: withLabels });

/** `--fields labels` names a deal's labels (the options of the deal field `label`); otherwise nothing more is read. */
async function* withLabels(ctx: Context, records: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  const named = withNames(ctx, records);
  if (!ctx.globals.fields?.includes('labels')) return yield* named;
  const { withNames: withLinked } = await import('../link-namer.js');
  yield* withLinked(ctx, named, [{ column: 'labels', idField: 'label_ids', kind: 'deal-label' }]);
}

type Deal = Record<string, unknown>;

async function* withNames(ctx: Context, records: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  let names: Names | undefined;
  for await (const r of records) {
    if (!r || typeof r !== 'object') {
      yield r;
      continue;
    }
    names ??= await loadNames(ctx);
    const d = r as Deal;
    yield {
      ...d,
      value: d.value === undefined || d.value === null ? '' : `${String(d.value)} ${String(d.currency ?? '')}`.trim(),
      stage: names.stages.get(Number(d.stage_id)) ?? d.stage_id,
      owner: names.users.get(Number(d.owner_id ?? d.user_id)) ?? d.owner_id ?? d.user_id,
    };
  }
}

interface Names {
  stages: Map<number, string>;
  users: Map<number, string>;
}

/** Stage and user names; a list the token may not read (scope) leaves ids in place, said under --debug. */
async function loadNames(ctx: Context): Promise<Names> {
  const [{ readAll }, { stageOps }, { userOps }] = await Promise.all([
    import('../../entry/prepare.js'),
    import('../../api/operations/stages.js'),
    import('../../api/operations/users.js'),
  ]);
  const read = async (op: Parameters<typeof readAll>[1], query: Record<string, unknown>): Promise<Map<number, string>> => {
    const out = new Map<number, string>();
    try {
      for await (const rec of readAll(ctx, op, { query }, { all: true })) {
        const x = rec as { id?: unknown; name?: unknown };
        if (typeof x.id === 'number' && typeof x.name === 'string') out.set(x.id, x.name);
      }
    } catch (err) {
      ctx.debug(`deal table: names from ${op.id} unavailable (${err instanceof Error ? err.message : String(err)}); showing ids`);
    }
    return out;
  };
  const [stages, users] = await Promise.all([read(stageOps.list, { limit: 500 }), read(userOps.list, {})]);
  return { stages, users };
}
