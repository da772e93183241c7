import { readAll } from '../../entry/prepare.js';
import type { Context } from '../../core/context.js';
import { normalizePerson, type NormalizeOptions, type NormalizeRow } from '../../health/normalize-plan.js';
import type { PersonRecord } from '../../health/types.js';
import { renderRecords } from '../../output/render.js';

export async function runNormalize(ctx: Context, o: NormalizeOptions & { changedOnly: boolean }): Promise<void> {
  const { budgetNotice } = await import('../../automation/budget-notice.js');
  budgetNotice(ctx, await ctx.http(), { tokens: 10, per: 'a page of 500 records', continueWith: 'run it again' });
  const { personOps } = await import('../../api/operations/persons.js');
  const tally = { changed: 0, same: 0, kept: 0, persons: new Set<number>() };
  async function* rows(): AsyncGenerator<NormalizeRow> {
    for await (const p of readAll(ctx, personOps.list, {})) {
      for (const r of normalizePerson(p as PersonRecord, o)) {
        tally[r.outcome]++;
        if (r.outcome === 'changed') tally.persons.add(r.id);
        if (!o.changedOnly || r.outcome === 'changed') yield r;
      }
    }
  }
  await renderRecords(ctx, rows(), { columns: ['id', 'name', 'field', 'before', 'after', 'outcome', 'note'], fields: ['id', 'name', 'field', 'before', 'after', 'outcome', 'note'] });
  ctx.info(`normalize: ${tally.changed} values of ${tally.persons.size} persons would change, ${tally.same} already normal, ${tally.kept} kept (cannot be normalised); dry run: nothing was changed.`);
}
