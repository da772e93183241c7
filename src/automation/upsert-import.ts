import { prepare, readAll, type Prepared, type Reader } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import { renderDocument } from '../output/report.js';
import type { Outcome } from './results.js';
import type { Issue } from './validate-body.js';
import { changesFor } from './upsert.js';
import { resolveMatchKey, UPSERT_AREAS, UPSERT_KINDS, type MatchKey, type UpsertArea, type UpsertKind } from './upsert-key.js';

/** What one row of `import --upsert` does. */
export type RowPlan =
  | { action: 'create' }
  | { action: 'update'; id: number | string; patch: Record<string, unknown>; changed: string[] }
  | { action: 'unchanged'; id: number | string };

/** Each results line says what happened to its row. */
export type RowAction = 'created' | 'updated' | 'unchanged' | 'failed' | 'skipped';

type Rec = Record<string, unknown>;

/**
 * `import <kind> --upsert --match-on FIELD`: every row's key is collected while the rows are checked,
 * then the kind's list is read once (all pages) and indexed by the key, as import's name references
 * are, instead of one search per row. A row whose key matches nothing is created (by import's usual
 * journaled, reconciled create); one match is diffed and PATCHed with what differs, or left alone;
 * rows that match several records, or two rows that match one record (or repeat one new key), are
 * refused by line before anything is sent.
 */
export class ImportUpsert {
  private readonly keys = new Map<number, string>();
  private readonly matched = new Map<number, Rec>();
  readonly dropped = new Set<string>();
  /** Records the one list read went through (for the cost a dry run shows). */
  private listed = 0;
  /** When the list was read, and last read again for creates (our clock, ms). */
  private readAt = 0;
  private refreshedAt = 0;
  /** Keys of records written since the list was read (by another run, or a killed run of this import). */
  private readonly lateKeys = new Map<string, Rec>();

  private constructor(readonly ctx: Context, readonly area: UpsertArea, readonly key: MatchKey, readonly ops: Awaited<ReturnType<UpsertArea['ops']>>) {}

  static async open(ctx: Context, resource: string, matchOn: string | undefined): Promise<ImportUpsert> {
    if (!(UPSERT_KINDS as readonly string[]).includes(resource)) throw new UsageError(`--upsert: ${resource} cannot be upserted; it works for ${UPSERT_KINDS.join(', ')}`);
    if (!matchOn) throw new UsageError('--upsert: needs --match-on FIELD (what identifies a record: email, name, code or a custom field by name)');
    const area = UPSERT_AREAS[resource as UpsertKind];
    const { checkReader } = await import('../entry/prepare.js');
    const key = await resolveMatchKey(checkReader(ctx), ctx, area, matchOn, '--match-on');
    return new ImportUpsert(ctx, area, key, await area.ops());
  }

  /** Notes a checked row's key; the rule it breaks when it has none. */
  note(line: number, body: Rec): Issue | undefined {
    const v = this.key.valueOf(body);
    if (v === undefined) return { field: this.key.custom ? this.key.label : this.key.member, rule: `is required with --match-on ${this.key.label} (the value records are matched on)` };
    this.keys.set(line, this.key.norm(v));
    return undefined;
  }

  /**
   * One paged read of the kind's list, indexed by the key: each row's match, and the rows refused
   * (several matches; two rows for one record or for one new key), with their rules by line.
   */
  async index(reader: Reader): Promise<Map<number, Issue[]>> {
    const wanted = new Set(this.keys.values());
    const byKey = new Map<string, Rec[]>();
    let read = 0;
    this.readAt = this.refreshedAt = Date.now();
    for await (const r of readAll(reader, this.ops.list, {}, { all: true })) {
      read++;
      const rec = r as Rec;
      for (const v of new Set(this.key.valuesOf(rec))) if (wanted.has(v)) byKey.set(v, [...(byKey.get(v) ?? []), rec]);
    }
    this.listed = read;
    this.ctx.debug(`import --upsert: read ${read} ${this.area.kind}; ${byKey.size} of ${wanted.size} keys match`);
    const problems = new Map<number, Issue[]>();
    const add = (line: number, rule: string) => problems.set(line, [...(problems.get(line) ?? []), { field: this.key.label, rule }]);
    const byRecord = new Map<string, number[]>();
    const newKeys = new Map<string, number[]>();
    for (const [line, k] of this.keys) {
      const recs = byKey.get(k) ?? [];
      if (recs.length > 1) {
        add(line, `${JSON.stringify(k)} matches ${recs.length} ${this.area.noun}s (${recs.map((r) => `${String(r.id)} ${JSON.stringify(r[this.area.title] ?? '')}`).join(', ')}); merge them or match on a unique field`);
        continue;
      }
      const rec = recs[0];
      if (rec) this.matched.set(line, rec);
      const group = rec ? byRecord : newKeys;
      const gk = rec ? String(rec.id) : k;
      group.set(gk, [...(group.get(gk) ?? []), line]);
    }
    for (const [id, lines] of byRecord) {
      if (lines.length > 1) for (const line of lines) add(line, `lines ${lines.join(', ')} match the same ${this.area.noun} (id ${id}); keep one row per ${this.area.noun}`);
    }
    for (const [k, lines] of newKeys) {
      if (lines.length > 1) for (const line of lines) add(line, `lines ${lines.join(', ')} give the same new ${this.key.label} ${JSON.stringify(k)}; keep one row per ${this.area.noun}`);
    }
    return problems;
  }

  /** What a checked row does: create, update (only what differs) or nothing. */
  async decide(line: number, body: Rec): Promise<RowPlan> {
    const rec = this.matched.get(line);
    if (!rec) return { action: 'create' };
    const { patch, changed, dropped } = await changesFor(this.ctx, this.area, this.ops.update, body, rec);
    for (const d of dropped) this.dropped.add(d);
    return changed.length ? { action: 'update', id: rec.id as number | string, patch, changed } : { action: 'unchanged', id: rec.id as number | string };
  }

  /** The values a row's PATCH replaces, as the matched record held them: what an undo writes back. */
  priorOf(line: number, patch: Rec): Rec {
    const rec = this.matched.get(line) ?? {};
    return Object.fromEntries(Object.keys(patch).map((k) => [k, rec[k] ?? null]));
  }

  /**
   * Upsert is not a lock: another run may create a row's record after the list was read. Just before
   * a create, the records written since the last read are read again (the list with updated_since,
   * at most once a second, so a large import pays one cheap read a second, not one per row) and a
   * record with the row's key is taken instead of creating a second one.
   */
  async createdMeanwhile(reader: Reader, line: number): Promise<number | string | undefined> {
    const k = this.keys.get(line);
    if (k === undefined || !this.readAt) return undefined;
    const { fieldsOf } = await import('../input/fields.js');
    if (!fieldsOf(this.ops.list.query, 'query').some((f) => f.key === 'updated_since')) return undefined;
    if (Date.now() - this.refreshedAt >= 1000) {
      // A margin for the service's clock and its 1 s resolution: a record read twice is harmless.
      const since = new Date(Math.floor((this.refreshedAt - 5000) / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      this.refreshedAt = Date.now();
      for await (const r of readAll(reader, this.ops.list, { query: { updated_since: since } }, { all: true })) {
        for (const v of new Set(this.key.valuesOf(r as Rec))) this.lateKeys.set(v, r as Rec);
      }
    }
    const rec = this.lateKeys.get(k);
    return rec ? (rec.id as number | string) : undefined;
  }

  /** The PATCH of an update through the one entry. */
  updateInput(reader: Reader, plan: Extract<RowPlan, { action: 'update' }>): Promise<Prepared> {
    return prepare(reader, this.ops.update, { params: { id: String(plan.id) }, body: plan.patch }, { naming: 'keys', container: 'row' });
  }

  /** Every results line says what happened to its row (created, updated, unchanged, failed, skipped). */
  tag(o: Outcome & { action?: RowAction }): Outcome {
    if (o.action) return o;
    return Object.assign(o, { action: actionOf(o) });
  }

  /** Counts for the summary line. */
  counts(outcomes: Iterable<Outcome>): Record<RowAction, number> {
    const n: Record<RowAction, number> = { created: 0, updated: 0, unchanged: 0, failed: 0, skipped: 0 };
    for (const o of outcomes) n[actionOf(o)]++;
    return n;
  }

  /** --dry-run: what each row would do, sending nothing. */
  async printPlan(rows: Array<{ line: number; plan: RowPlan | { action: 'invalid' | 'done' } }>): Promise<void> {
    const planned = rows.map(({ line, plan }) => ({
      line,
      action: plan.action,
      ...('id' in plan ? { id: plan.id } : {}),
      ...('changed' in plan ? { changed: plan.changed } : {}),
    }));
    const count = (a: string) => planned.filter((r) => r.action === a).length;
    const summary = { create: count('create'), update: count('update'), unchanged: count('unchanged'), invalid: count('invalid'), done: count('done') };
    const { list, create, update } = this.ops;
    const listCost = Math.max(1, Math.ceil(this.listed / (list.maxLimit ?? 500))) * (list.cost ?? 0);
    const writeCost = summary.create * (create.cost ?? 0) + summary.update * (update.cost ?? 0);
    const text = [
      `Dry run: nothing was sent. ${this.area.kind} matched on ${this.key.label}: ${summary.create} to create, ${summary.update} to update, ${summary.unchanged} unchanged${summary.invalid ? `, ${summary.invalid} invalid (skipped)` : ''}${summary.done ? `, ${summary.done} done by an earlier run` : ''}`,
      `  cost ${listCost + writeCost}: ${list.method} ${list.path} read once (${listCost}), writes ${writeCost}`,
      ...planned.map((r) => `  line ${r.line}: ${r.action}${r.id !== undefined ? ` ${this.area.noun} ${String(r.id)}` : ''}${r.changed ? ` (${r.changed.join(', ')})` : ''}`),
    ];
    await renderDocument(this.ctx, { json: { resource: this.area.kind, match_on: this.key.label, ...summary, total_cost: listCost + writeCost, rows: planned }, text: text.join('\n') });
  }
}

/** What an outcome says happened: its own action, else what a plain import's outcome means. */
function actionOf(o: Outcome): RowAction {
  return (o as { action?: RowAction }).action ?? ('id' in o ? 'created' : o.skipped ? 'skipped' : 'failed');
}
