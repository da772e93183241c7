import type { Context } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import { formatFor } from '../../output/format.js';
import { renderRecord, renderRecords, writeOut } from '../../output/render.js';
import { accountOf } from '../../runs/account.js';
import { readRun } from '../../runs/entries.js';
import { listRecords, loadRun, runsDir } from '../../runs/registry.js';
import { ITEM_FIELDS, itemRows, LIST_COLUMNS, LIST_FIELDS, runRow } from './views.js';

/** The runs of this account (all accounts with --all-accounts: no credentials needed then), newest first. */
export async function runsList(ctx: Context, flags: { allAccounts: boolean }): Promise<void> {
  const account = flags.allAccounts ? undefined : await accountOf(ctx);
  const rows = listRecords(ctx.env, account).map((r) => runRow(r, () => readRun(r.journal).items));
  await renderRecords(ctx, rows, { columns: LIST_COLUMNS, fields: LIST_FIELDS });
}

/** One run: its record and, per item of its journal, what became of it. */
export async function runsShow(ctx: Context, id: string): Promise<void> {
  const loaded = loadRun(ctx.env, id);
  if (!loaded) throw new NotFoundError(`run ${id}: no such run in ${runsDir(ctx.env)}`, 'crmctl runs list shows the runs of this account (--all-accounts: of every account).');
  const run = runRow(loaded.record, () => loaded.journal.items);
  const items = itemRows(loaded.journal.items);
  const format = ctx.globals.query !== undefined ? 'json' : formatFor(ctx, 'records');
  if (format === 'json') return renderRecord(ctx, { ...run, items });
  if (format === 'table') {
    await renderRecord(ctx, run, { columns: LIST_FIELDS });
    if (!items.length) return ctx.info('No records written.');
    await writeOut(ctx.io.stdout, '\n');
    await renderRecords(ctx, items, { columns: ITEM_FIELDS });
    return;
  }
  await renderRecords(ctx, items, { columns: ITEM_FIELDS, fields: ITEM_FIELDS });
}
