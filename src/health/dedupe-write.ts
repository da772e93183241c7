import { prepare, readerOf, type Prepared, type Reader } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { ValidationError } from '../core/errors.js';
import { renderDocument } from '../output/report.js';
import { announceMerge, exists, sendMerge, type MergeOps } from '../automation/merge-send.js';
import { filesStay, MERGE_UNDO } from '../automation/undo-plan.js';
import { itemStates, openRun, runInput } from '../runs/run.js';
import type { DedupePlan } from './dedupe-plan.js';
import { RunSends } from './run-sends.js';

type Rec = Record<string, unknown>;

export interface DedupeWriteFlags {
  state: string;
  resume: boolean;
  newRun: boolean;
}


/**
 * The merges of `dedupe persons|organizations`, as a run (kind dedupe): every member of a group but the
 * survivor is merged into it through the service's merge operation (`PUT /v1/<kind>/{id}/merge`).
 * Each merge is journaled "sending" (op update of the merged record, `sent` = {merge_with_id}) before
 * it goes out, with what its undo needs, read just before (src/automation/merge-keep.ts): the merged
 * record whole, the kept record's fields the merge changes, the ids of the records it moves, the deals the
 * merged person takes part in, both records' followers and the count of files it moves. A merge whose
 * answer is lost, or left in "sending" by a kill, is settled by reading the merged
 * record: gone means merged; a merge is never sent blindly a second time.
 */
export async function runDedupeWrite(ctx: Context, plan: DedupePlan, ops: MergeOps, input: Rec, flags: DedupeWriteFlags): Promise<void> {
  const kind = plan.kind;
  const opened = await openRun(ctx, {
    kind: 'dedupe',
    journal: flags.state,
    input: runInput({ area: kind, ...input }, `${kind}: merge duplicates, keep ${plan.keep}`),
    resume: flags.resume,
    newRun: flags.newRun,
    header: { area: kind, keep: plan.keep },
    journalFlag: '--state',
  });
  if (opened.state === 'done') return;
  const run = opened.run;
  const http = await ctx.http();
  const reader: Reader = { http: () => ctx.http(), debug: (l) => ctx.debug(l), credentials: () => ctx.credentials(), memo: new Map() };
  const readBack = readerOf(http, (l) => ctx.debug(l));
  // A resumed run: the groups are read again (merged records are gone, so they are not planned again); a merge announced and cut off is settled by reading it.
  const pending = opened.state === 'resume' ? [...itemStates(opened.entries).values()].filter((s) => s.unsettled && s.write) : [];

  const merges = plan.groups.flatMap((g) => g.merges.map((m) => ({ id: Number(m.path.split('/')[3]), into: g.keep })));
  const lines = [
    `Dedupe ${kind}: ${plan.groups.length} group${plan.groups.length === 1 ? '' : 's'}, ${merges.length} merge${merges.length === 1 ? '' : 's'} (cost at least ${plan.cost}: ${plan.cost - plan.undo_reads} the merges, at least ${plan.undo_reads} the reads that keep what an undo needs), keep ${plan.keep}:`,
    ...plan.groups.map((g) => `  keep ${g.keep} (${g.why_keep}); merge ${g.merges.map((m) => m.path.split('/')[3]).join(', ')} into it`),
    ...(pending.length ? [`  ${pending.length} merge${pending.length === 1 ? '' : 's'} cut off by a stop: the merged record is read first, never merged twice`] : []),
    ...(plan.files ? [`  ${filesStay(plan.files)}`] : []),
    `  undo: crmctl undo ${run.id}; ${MERGE_UNDO}`,
  ];
  ctx.io.stderr.write(`${lines.join('\n')}\n`);
  if (merges.length) {
    try {
      await ctx.confirm(`Merge ${merges.length} ${kind}?`);
    } catch (err) {
      if (run.resumable) await run.pause();
      else await run.discard();
      throw err;
    }
  }

  run.watchSignals('merges');
  const sends = new RunSends(ctx, run);
  // The records merges of this run went into (a resumed run counts those its cut-off merges reached too).
  const kept = new Set<number>();
  await RunSends.guard(run, async () => {
    await run.begin();
    for (const s of pending) {
      const id = s.write!.record as number;
      if (await exists(readBack, ops.get, id)) {
        // Not merged: this run's plan merges it again if it is still a duplicate; the item is settled as not written.
        await run.done(s.key, { record: id, action: 'unchanged' });
      } else {
        sends.done++;
        kept.add(Number((s.write!.sent as Rec | undefined)?.merge_with_id));
        await run.done(s.key, { record: id, action: 'merged', reconciled: true });
      }
    }
    for (const m of merges) {
      if (run.stopping) break;
      const key = `merge:${m.id}`;
      let prepared: Prepared;
      try {
        prepared = await prepare(reader, ops.merge, { params: { id: m.id }, body: { merge_with_id: m.into } });
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        await sends.refused(key, m.id, err.issues.map((i) => `${i.field}: ${i.rule}`).join('; '));
        continue;
      }
      await announceMerge(ctx, run, readBack, kind, key, prepared, m.id, m.into);
      let unsettled = false;
      await sends.send(key, m.id, async () => {
        const done = await sendMerge(http, readBack, ops, kind, prepared, m.id, m.into, () => (unsettled = true));
        kept.add(m.into);
        return done;
      }, () => unsettled);
    }
    const said = `${sends.done} merged, ${sends.failed} failed`;
    await sends.end(said, { merged: sends.done, failed: sends.failed }, merges.length, flags.state, () => renderDocument(ctx, {
      json: { run: run.id, kind, keep: plan.keep, groups: plan.groups.length, kept: kept.size, merged: sends.done, failed: sends.failed, journal: flags.state },
      text: `Merged ${sends.done} ${kind} into ${kept.size} kept; ${sends.failed} failed (run ${run.id}; crmctl undo ${run.id} re-creates the merged records).`,
    }));
  });
}
