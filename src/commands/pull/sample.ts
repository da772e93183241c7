import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkReader } from '../../entry/prepare.js';
import type { Context } from '../../core/context.js';
import { csvColumns, encoderFor } from '../../automation/encoders.js';
import { currencyFor } from '../../runs/account.js';
import { findExportResource } from '../../automation/resources.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { fieldCatalog } from '../../names/catalog.js';
import { getPath } from '../../output/cells.js';
import { csvRecord } from '../../names/read.js';
import { withNameColumns } from '../../names/links/columns.js';
import { RecordNames } from '../../names/links/record-names.js';
import { linkNames } from '../../names/links/resolver.js';
import { type FakeKind, Pseudonyms } from './pseudonym.js';
import { Scrubber } from './scrub.js';
import { linkId, pickSample, type Picked, type Rec } from './sample-pick.js';
import { keptCustomColumns, pseudonymize, SAMPLE_KINDS, sampleColumns, type SampleKind } from './sample-policy.js';

/**
 * `pull --sample N`: writes <dir>/sample/{organizations,persons,deals,activities}.csv, up to `count`
 * records of each with their links inside the sample, in the CSV form `crmctl export` writes (link
 * names beside ids, custom fields by name), names, emails and phones replaced deterministically and
 * people's free text left out (sample-policy.ts says what is kept). `sandbox start --from <dir>`
 * loads them back. CRMCTL_SAMPLE_KEY replaces the default key of the fakes.
 *
 * The sample is picked before the configuration is read: its records' names are what `scrub`
 * replaces in the whole directory (scrub.ts), so the configuration is written through it too.
 */
export async function prepareSample(ctx: Context, count: number): Promise<{ scrub: Scrubber; write(dir: string): Promise<{ files: string[]; records: number }> }> {
  const picked = await pickSample(ctx, count);
  const fakes = new Pseudonyms(ctx.env.CRMCTL_SAMPLE_KEY || undefined);
  const scrub = new Scrubber(fakes);
  for (const kind of SAMPLE_KINDS) for (const r of picked[kind]) for (const [k, v] of personalValues(kind, r)) scrub.add(k, v);
  return { scrub, write: (dir) => writeSample(ctx, picked, fakes, scrub, dir) };
}

async function writeSample(ctx: Context, picked: Picked, fakes: Pseudonyms, scrub: Scrubber, dir: string): Promise<{ files: string[]; records: number }> {
  const names = linkNames(checkReader(ctx), ctx);
  const out = join(dir, 'sample');
  mkdirSync(out, { recursive: true });
  const files: string[] = [];
  let records = 0;
  for (const kind of SAMPLE_KINDS) {
    const op = findExportResource(kind)!.op;
    const cat = op.cli.customFields ? await fieldCatalog(checkReader(ctx), op.cli.customFields, ctx) : undefined;
    const currency = cat ? await currencyFor(ctx, cat)(picked[kind]) : undefined;
    const base = picked[kind].map((r) => (cat ? csvRecord(cat, r, currency) : r) as Rec);
    const columns = sampleColumns(kind, withNameColumns(csvColumns(op.cli.fields, base), op.cli.customFields), cat ? keptCustomColumns(cat) : new Set());
    const rows = base.map((r) => namesFromSample(r, picked));
    // Stage and pipeline names are configuration: read as an export reads them.
    const named = (await new RecordNames(names, op.cli.customFields, kind).annotate(rows, { only: columns })) as Rec[];
    const faked = named.map((r) => pseudonymize(kind, r, (k, v) => fakes.fake(k, v), (k, v) => fakes.fakeList(k, v)));
    // The other columns (stage names, option labels, custom field names) are written as the configuration writes them.
    const shown = columns.map((c) => scrub.text(c));
    const clean = faked.map((r) => Object.fromEntries(columns.map((c, i) => [shown[i], scrub.value(getPath(r, c))])));
    const enc = encoderFor('csv', shown);
    const file = join(out, `${kind}.csv`);
    writeFileAtomic(file, enc.page(clean, 0) + enc.end(clean.length), 0o644);
    files.push(file);
    records += clean.length;
  }
  return { files, records };
}

/** The values of a sample record that the sample replaces (sample-policy.ts), as [kind, value] pairs. */
function personalValues(kind: SampleKind, r: Rec): Array<[FakeKind, unknown]> {
  const values = (list: unknown) => (Array.isArray(list) ? list.map((x) => (x && typeof x === 'object' ? (x as Rec).value : x)) : [list]);
  if (kind === 'persons') return [['person', r.name], ...values(r.emails).map((v): [FakeKind, unknown] => ['email', v]), ...values(r.phones).map((v): [FakeKind, unknown] => ['phone', v])];
  if (kind === 'organizations') return [['organization', r.name]];
  if (kind === 'deals') return [['deal', r.title]];
  return [['activity', r.subject]];
}

/**
 * The person and organization names beside their ids, from the sample's own records (every link
 * points inside it), so the whole person and organization lists are never read to name a few links.
 */
function namesFromSample(r: Rec, picked: Picked): Rec {
  const nameOf = (kind: SampleKind, id: unknown) => (linkId(id) === undefined ? null : (picked[kind].find((x) => String(x.id) === linkId(id))?.name ?? null));
  const out = { ...r };
  if ('person_id' in out) out.person_name = nameOf('persons', out.person_id);
  if ('org_id' in out) out.org_name = nameOf('organizations', out.org_id);
  return out;
}
