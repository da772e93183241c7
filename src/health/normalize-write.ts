import { callOperation } from '../api/call.js';
import { prepare, read, readAll, readerOf, type Prepared, type Reader } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { ValidationError } from '../core/errors.js';
import type { HttpResponse } from '../http/types.js';
import { renderDocument } from '../output/report.js';
import { holds } from '../automation/bulk-update-changes.js';
import { priorValues } from '../automation/bulk-update.js';
import { itemStates, openRun, runInput } from '../runs/run.js';
import { normalizePerson, type NormalizeOptions, type NormalizeRow } from './normalize-plan.js';
import { RunSends } from './run-sends.js';
import type { PersonRecord } from './types.js';

type Rec = Record<string, unknown>;

export interface NormalizeWriteFlags {
  state: string;
  resume: boolean;
  newRun: boolean;
}

/** One person's write: the whole phones/emails lists with the changed values (labels and primary kept). */
interface PersonWrite {
  id: number;
  name: string;
  body: Rec;
  rows: NormalizeRow[];
}

/**
 * The writes of `normalize persons`: one PATCH of a person's phones and/or emails per person whose
 * values change, as a run (kind normalize). Each write is journaled "sending" with the values it replaces
 * (the entries bulk-update writes), so `crmctl undo RUN` sets them back; a write whose answer is lost, or
 * left in "sending" by a kill, is settled by reading the person back before anything is sent again.
 */
export async function runNormalizeWrite(ctx: Context, o: NormalizeOptions, flags: NormalizeWriteFlags): Promise<void> {
  const { personOps } = await import('../api/operations/persons.js');
  const opened = await openRun(ctx, {
    kind: 'normalize',
    journal: flags.state,
    input: runInput({ area: 'persons', phones: o.phones ?? null, emails: o.emails ?? null, region: o.region ?? null }, `persons: ${[o.phones && `phones ${o.phones}`, o.emails && `emails ${o.emails}`].filter(Boolean).join(', ')}${o.region ? ` (region ${o.region})` : ''}`),
    resume: flags.resume,
    newRun: flags.newRun,
    header: { area: 'persons', phones: o.phones ?? null, emails: o.emails ?? null, region: o.region ?? null },
    journalFlag: '--state',
  });
  if (opened.state === 'done') return;
  const run = opened.run;
  // Writes a killed run announced: settled by what the person holds now (never sent twice).
  const pending = new Map<string, Rec>();
  if (opened.state === 'resume') {
    for (const s of itemStates(opened.entries).values()) if (s.unsettled && s.write?.sent) pending.set(s.key, s.write.sent as Rec);
  }

  const http = await ctx.http();
  const reader: Reader = { http: () => ctx.http(), debug: (l) => ctx.debug(l), credentials: () => ctx.credentials(), memo: new Map() };
  const writes: PersonWrite[] = [];
  const landed: number[] = [];
  const current = new Map<number, Rec>();
  try {
    for await (const p of readAll(ctx, personOps.list, {})) {
      const person = p as PersonRecord & Rec;
      current.set(person.id, person);
      const sent = pending.get(String(person.id));
      if (sent && holds(person, sent)) {
        landed.push(person.id);
        continue;
      }
      const w = writeOf(person, o);
      if (w) writes.push(w);
    }
  } catch (err) {
    await run.close();
    throw err;
  }
  const values = writes.reduce((n, w) => n + w.rows.length, 0);
  const lines = [`Normalize persons: ${values} value${values === 1 ? '' : 's'} of ${writes.length} person${writes.length === 1 ? '' : 's'} change (one update each, cost ${writes.length * (personOps.update.cost ?? 5)}):`];
  for (const w of writes) for (const r of w.rows) lines.push(`  ${r.id} ${r.name}: ${r.field} ${r.before} → ${r.after}`);
  if (landed.length) lines.push(`  ${landed.length} written by the run before it stopped (not written again)`);
  lines.push(`  undo: crmctl undo ${run.id} sets every value back`);
  ctx.io.stderr.write(`${lines.join('\n')}\n`);
  if (writes.length) {
    try {
      await ctx.confirm(`Update ${writes.length} persons?`);
    } catch (err) {
      if (run.resumable) await run.pause();
      else await run.discard();
      throw err;
    }
  }

  run.watchSignals('updates');
  const sends = new RunSends(ctx, run);
  sends.done = landed.length;
  await RunSends.guard(run, async () => {
    await run.begin();
    for (const id of landed) await run.done(String(id), { record: id, action: 'updated', reconciled: true });
    const readBack = readerOf(http, (l) => ctx.debug(l));
    for (const w of writes) {
      if (run.stopping) break;
      const key = String(w.id);
      let input: Prepared;
      try {
        input = await prepare(reader, personOps.update, { params: { id: w.id }, body: w.body });
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        await sends.refused(key, w.id, err.issues.map((i) => `${i.field}: ${i.rule}`).join('; '));
        continue;
      }
      const body = input.body as Rec;
      await run.sending(key, { op: 'update', record: w.id, sent: body, prior: priorValues(current.get(w.id) ?? {}, body) });
      let unsettled = false;
      // PATCH is idempotent on paper, but a blind resend would write twice: a lost answer is settled by reading the person.
      const reconcile = async (): Promise<HttpResponse | undefined> => {
        try {
          const now = await read(readBack, personOps.get, { params: { id: w.id } });
          return holds(now, body) ? { status: 200, headers: {}, body: { success: true, data: now } } : undefined;
        } catch (err) {
          unsettled = true;
          throw err;
        }
      };
      await sends.send(key, w.id, async () => {
        await callOperation(http, personOps.update, input, { idempotent: false, reconcile });
        return { action: 'updated' };
      }, () => unsettled);
    }
    const said = `${sends.done} persons updated, ${sends.failed} failed`;
    await sends.end(said, { updated: sends.done, failed: sends.failed }, writes.length, flags.state, () => renderDocument(ctx, {
      json: { run: run.id, area: 'persons', updated: sends.done, values, failed: sends.failed, journal: flags.state },
      text: `Normalized ${values} values of ${sends.done} persons; ${sends.failed} failed (run ${run.id}; crmctl undo ${run.id} sets them back).`,
    }));
  });
}

/** The update that normalizes one person (undefined when nothing changes): each list whole, only changed values replaced. */
export function writeOf(p: PersonRecord & Rec, o: NormalizeOptions): PersonWrite | undefined {
  const rows = normalizePerson(p, o).filter((r) => r.outcome === 'changed');
  if (!rows.length) return undefined;
  const body: Rec = {};
  const listOf = (field: 'phone' | 'email', key: 'phones' | 'emails') => {
    const changed = new Map(rows.filter((r) => r.field === field).map((r) => [r.before, r.after]));
    if (!changed.size) return;
    body[key] = ((p[key] ?? []) as Array<Rec & { value?: string }>).map((c) => (c?.value !== undefined && changed.has(c.value) ? { ...c, value: changed.get(c.value) } : c));
  };
  listOf('phone', 'phones');
  listOf('email', 'emails');
  return { id: p.id, name: p.name, body, rows };
}
