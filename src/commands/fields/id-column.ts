import type { Operation } from '../../api/operation.js';
import type { Context } from '../../core/context.js';
import { derivedView } from '../table-view.js';

/**
 * The numeric id of each field in the table of `*-fields list`. The v2 list (the default) names a field
 * by its key (field_code) and has no id, but a filter condition (`filters create --conditions`) and the
 * v1 deletes take the id: the table, TSV and CSV add it from one read of the v1 list (cost 20 per 500
 * fields). json and ndjson keep the v2 records and read nothing more; `--v1 --json` has both.
 */
export function fieldIdView(listV1: Operation) {
  return derivedView({
    columns: ['id', 'field_code', 'field_name', 'field_type', 'is_custom_field'],
    derived: ['id'],
    async *present(ctx, records) {
      let ids: Map<string, number> | undefined;
      for await (const r of records) {
        if (!r || typeof r !== 'object') {
          yield r;
          continue;
        }
        ids ??= await loadIds(ctx, listV1);
        yield { id: ids.get(String((r as { field_code?: unknown }).field_code)) ?? '', ...r };
      }
    },
  });
}

/** key → id from the v1 list; a token that may not read it leaves the column empty (said under --debug). */
async function loadIds(ctx: Context, listV1: Operation): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  try {
    const { readAll } = await import('../../entry/prepare.js');
    for await (const f of readAll(ctx, listV1, { query: listV1.pagination === 'none' ? {} : { limit: 500 } })) {
      const x = f as { id?: unknown; key?: unknown };
      if (typeof x.id === 'number' && typeof x.key === 'string') out.set(x.key, x.id);
    }
  } catch (err) {
    ctx.debug(`fields table: ids from ${listV1.id} unavailable (${err instanceof Error ? err.message : String(err)})`);
  }
  return out;
}
