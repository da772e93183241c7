import { callOperation, recordsOf } from '../api/call.js';
import { safeLines } from '../output/safe-text.js';
import type { Operation } from '../api/operation.js';
import { checkReader, prepare, read, readAll } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { UsageError, ValidationError } from '../core/errors.js';
import type { RawInput } from '../input/operation-input.js';
import { recordedWrite } from './record-write.js';
import { differences } from './upsert-diff.js';
import { resolveMatchKey, UPSERT_AREAS, type MatchKey, type UpsertArea, type UpsertKind } from './upsert-key.js';

export type UpsertAction = 'created' | 'updated' | 'unchanged';

type Rec = Record<string, unknown>;

const UPSERT = { kind: 'upsert' } as const;

/**
 * `crmctl <area> upsert --by KEY`: the create flags' values, matched on KEY. No match → create; one →
 * PATCH with only the members that differ (nothing sent when none does); several → exit 2 listing
 * them, nothing sent. Every body goes through the entry (prepare) before anything is sent.
 */
export async function runUpsert(ctx: Context, kind: UpsertKind, by: string | undefined, raw: RawInput): Promise<void> {
  const area = UPSERT_AREAS[kind];
  const ops = await area.ops();
  if (by === undefined) {
    // The values are checked first, so a bad one is named together with the missing key (nothing is sent).
    await prepare(ctx, ops.create, raw);
    throw new ValidationError([{ field: '--by', rule: `is required: what identifies the ${area.noun} (${Object.keys(area.searchable).join(', ')}, or a custom field by name)` }]);
  }
  const key = await resolveMatchKey(checkReader(ctx), ctx, area, by, '--by');
  const prepared = await prepare(ctx, ops.create, raw);
  const body = prepared.body as Rec;
  const value = key.valueOf(body);
  if (value === undefined) throw new ValidationError([{ field: inputFlag(key), rule: `is required to upsert --by ${key.label} (the value records are matched on)` }]);

  const matches = await findMatches(ctx, area, ops, key, value);
  if (matches.length > 1) throw severalMatch(area, key, value, matches);
  const http = await ctx.http();
  let found = matches[0];
  if (!found) {
    const { envelope } = await recordedWrite(ctx, ops.create, prepared, UPSERT, () => callOperation(http, ops.create, prepared));
    const record = recordsOf(ops.create, envelope) as Rec;
    const first = await earlierTwin(ctx, area, ops, key, value, record);
    if (!first) {
      say(ctx, `created ${area.noun} ${String(record?.id)} (no ${area.noun} has ${key.label} ${JSON.stringify(value)})`);
      await show(ctx, ops.create, 'created', record);
      return;
    }
    // Upsert is not a lock: another run created the record between our search and our create. Ours is
    // seconds old and nothing else knows it; the earlier one is kept, and these values go to it. This
    // delete is not recorded: it takes back the create just recorded (whose undo then finds it gone), and
    // an `undo --last` must not create the twin again.
    await callOperation(http, ops.delete, await prepare(ctx, ops.delete, { params: { id: String(record.id) } }));
    say(ctx, `${area.noun} ${String(first.id)} with ${key.label} ${JSON.stringify(value)} was created by another run at the same time as ours (${String(record.id)}, now deleted): upsert is not a lock (docs/upsert.md); ${String(first.id)} is the match`);
    found = first;
  }
  const { patch, changed, dropped } = await changesFor(ctx, area, ops.update, body, found);
  if (dropped.length) say(ctx, `not changed on an existing ${area.noun} (set only when one is created): ${dropped.join(', ')}`);
  if (!changed.length) {
    say(ctx, `unchanged: ${area.noun} ${String(found.id)} already has these values`);
    await show(ctx, ops.create, 'unchanged', found);
    return;
  }
  const input = await prepare(ctx, ops.update, { params: { id: String(found.id) }, body: patch });
  const { envelope } = await recordedWrite(ctx, ops.update, input, UPSERT, () => callOperation(http, ops.update, input));
  const record = (recordsOf(ops.update, envelope) as Rec | null) ?? found;
  say(ctx, `updated ${area.noun} ${String(found.id)}: ${changed.join(', ')}`);
  await show(ctx, ops.create, 'updated', record, changed);
}

/**
 * A record with the same key created before ours (a lower id) by a run at the same time: found by the
 * same search, once our create has landed. Both runs look; only the later one finds an earlier twin,
 * so the two converge on the first record instead of each keeping one.
 */
async function earlierTwin(ctx: Context, area: UpsertArea, ops: { search: Operation; get: Operation }, key: MatchKey, value: string, ours: Rec): Promise<Rec | undefined> {
  const others = (await findMatches(ctx, area, ops, key, value)).filter((m) => String(m.id) !== String(ours.id) && Number(m.id) < Number(ours.id));
  return others.sort((a, b) => Number(a.id) - Number(b.id))[0];
}

/**
 * The update of one matched record: members that differ, less those the update does not take (a
 * create-only member such as add_time), named in `dropped`. Custom fields are named by their names.
 */
export async function changesFor(reader: Context | undefined, area: UpsertArea, update: Operation, body: Rec, record: Rec): Promise<{ patch: Rec; changed: string[]; dropped: string[] }> {
  const nameOf = reader && body.custom_fields ? await customNames(reader, area) : () => undefined;
  const { patch, changed } = differences(body, record, nameOf);
  const { fieldsOf } = await import('../input/fields.js');
  const takes = new Set(fieldsOf(update.body, 'body').map((f) => f.key.split('.')[0]!));
  const dropped = Object.keys(patch).filter((k) => !takes.has(k));
  for (const k of dropped) {
    delete patch[k];
    const at = changed.indexOf(k);
    if (at >= 0) changed.splice(at, 1);
  }
  return { patch, changed, dropped };
}

async function customNames(ctx: Context, area: UpsertArea): Promise<(key: string) => string | undefined> {
  const { fieldCatalog } = await import('../names/catalog.js');
  const cat = await fieldCatalog(checkReader(ctx), area.itemType, ctx);
  return (k) => cat.nameOf(k);
}

/**
 * Records whose key is `value`: the service's search (exact_match, the key's field only) finds the
 * candidates, and each is read whole to confirm the value, since a search of custom fields or names
 * can also find a record through another member.
 */
async function findMatches(ctx: Context, area: UpsertArea, ops: { search: Operation; get: Operation }, key: MatchKey, value: string): Promise<Rec[]> {
  const ids = new Set<string>();
  for await (const hit of readAll(ctx, ops.search, { query: { term: value, fields: [key.searchField], exact_match: true } })) {
    const id = (hit as { item?: { id?: unknown } }).item?.id;
    if (id !== undefined && id !== null) ids.add(String(id));
  }
  ctx.debug(`upsert: the ${area.noun} search for ${key.label} ${JSON.stringify(value)} found ${ids.size} candidate(s)`);
  const wanted = key.norm(value);
  const out: Rec[] = [];
  for (const id of ids) {
    const rec = (await read(ctx, ops.get, { params: { id } })) as Rec | null;
    if (rec && key.valuesOf(rec).includes(wanted)) out.push(rec);
  }
  return out;
}

export function severalMatch(area: UpsertArea, key: MatchKey, value: string, matches: Rec[]): UsageError {
  const lines = matches.map((m) => `  ${String(m.id)}  ${String(m[area.title] ?? '')}`);
  return new UsageError(
    `${key.flag} ${key.label}: ${JSON.stringify(value)} matches ${matches.length} ${area.noun}s; nothing was sent:\n${lines.join('\n')}`,
    `Merge them (crmctl ${area.kind} merge) or match on a key that is unique per ${area.noun}.`,
  );
}

/** The input flag that gives a key's value, for the message when it is missing. */
function inputFlag(key: MatchKey): string {
  if (key.custom) return `--field ${key.label}`;
  return `--${key.member.replace(/_/g, '-')}`;
}

/** Status lines go to stderr always: scripts read stdout, and "unchanged" is what a re-run says. */
function say(ctx: Context, line: string): void {
  // A status line may quote a record's text (its title): shown safe on a terminal.
  ctx.io.stderr.write(`${safeLines(line)}\n`);
}

/** json/ndjson (and --query) get {action, changed, record}; a table or TSV shows the record as create does. */
async function show(ctx: Context, create: Operation, action: UpsertAction, record: Rec, changed?: string[]): Promise<void> {
  const [{ formatFor }, { renderRecord }] = await Promise.all([import('../output/format.js'), import('../output/render.js')]);
  const format = ctx.globals.query !== undefined ? 'json' : formatFor(ctx, 'records');
  if (format === 'json' || format === 'ndjson') {
    await renderRecord(ctx, { action, ...(changed ? { changed } : {}), record });
    return;
  }
  await renderRecord(ctx, record, { columns: create.cli.columns, fields: create.cli.fields });
}
