/**
 * `sandbox start --from DIR --anonymize` with a backup: a copy of the backup whose people's data is
 * replaced as `pull --sample` replaces it — the same deterministic fakes (pull/pseudonym.ts, keyed by
 * CRMCTL_SAMPLE_KEY), the same scrubber for names left in the configuration's text (pull/scrub.ts), the
 * same rule for custom fields (only shape is kept: options, numbers, amounts, dates). A migration is
 * rehearsed on the account's shape and links, not on its customers.
 *
 * What is replaced: names of persons, organizations and users, e-mails, phones and messenger handles,
 * titles of deals, leads, projects and tasks, subjects of activities and calls, the bodies of notes and
 * comments (a fake per text: each stays distinct, so a restore's look-up by content still finds one);
 * what is dropped: addresses, web sites, birthdays, people's notes, descriptions, lost and archive
 * reasons, meeting links; files' names are faked and their bytes replaced by a short stand-in text.
 * Ids and links stay: they are the copy's structure.
 */
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { paths, type Manifest } from '../../backup/format.js';
import { BACKUP_KINDS, type ItemType } from '../../backup/kinds.js';
import { manifestKinds } from '../../backup/manifest.js';
import type { FieldDef } from '../../backup/side.js';
import { writeJsonAtomic } from '../../fs/atomic-write.js';
import { type FakeKind, Pseudonyms } from '../pull/pseudonym.js';
import { SAFE_CUSTOM_TYPES } from '../pull/sample-policy.js';
import { Scrubber } from '../pull/scrub.js';

type Rec = Record<string, unknown>;

const CUSTOM_KEY = /^[0-9a-f]{40}(_currency|_until|_timezone_id)?$/;

/** Each kind's replacements: fields faked (by kind of fake) and fields dropped (set to null). */
const FAKE: Record<string, Record<string, FakeKind>> = {
  users: { name: 'person', email: 'email', phone: 'phone' },
  persons: { name: 'person', emails: 'email', phones: 'phone', ims: 'email' },
  organizations: { name: 'organization' },
  deals: { title: 'deal' },
  'deals-archived': { title: 'deal' },
  leads: { title: 'lead' },
  'leads-archived': { title: 'lead' },
  projects: { title: 'project' },
  'projects-archived': { title: 'project' },
  tasks: { title: 'task' },
  activities: { subject: 'activity' },
  'call-logs': { subject: 'activity', to_phone_number: 'phone', from_phone_number: 'phone' },
  notes: { content: 'text' },
  'note-comments': { content: 'text' },
  files: { file_name: 'text', name: 'text' },
};
const DROP: Record<string, string[]> = {
  persons: ['postal_address', 'notes', 'birthday'],
  organizations: ['address', 'website', 'linkedin'],
  deals: ['lost_reason'],
  'deals-archived': ['lost_reason'],
  leads: ['archive_reason'],
  'leads-archived': ['archive_reason'],
  projects: ['description'],
  'projects-archived': ['description'],
  tasks: ['description'],
  activities: ['note', 'public_description', 'location', 'conference_meeting_url', 'conference_meeting_id'],
  'call-logs': ['note'],
  'deal-products': ['comments'],
  files: ['description', 'deal_name', 'person_name', 'org_name', 'lead_name', 'project_name'],
};

async function* lines(file: string): AsyncGenerator<Rec> {
  if (!existsSync(file)) return;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) if (line.trim()) yield JSON.parse(line) as Rec;
}

/** Writes the anonymized copy of backup `dir` into `to` (a new directory) with its own manifest. */
export async function anonymizedCopy(dir: string, manifest: Manifest, to: string, key: string | undefined): Promise<void> {
  const fakes = new Pseudonyms(key || undefined);
  const scrub = new Scrubber(fakes);
  // Every value a record fakes is learned first, so the configuration's text (a filter naming a person,
  // a user's e-mail in a team) gets the very fake the records get.
  for (const [kind, fields] of Object.entries(FAKE)) {
    for await (const r of lines(paths.records(dir, kind))) {
      for (const [f, k] of Object.entries(fields)) for (const v of plainValues(r[f])) scrub.add(k, v);
      if (kind === 'persons') for (const f of ['first_name', 'last_name']) scrub.add('person', r[f]);
    }
  }
  const schemas = new Map<ItemType, Map<string, string>>();
  for (const k of BACKUP_KINDS) {
    if (!k.itemType || schemas.has(k.itemType)) continue;
    const f = paths.fields(dir, k.itemType === 'lead' ? 'deal' : k.itemType);
    const defs = existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as FieldDef[]) : [];
    schemas.set(k.itemType, new Map(defs.filter((d) => d.custom).map((d) => [d.key, d.field_type])));
  }

  mkdirSync(paths.recordsDir(to), { recursive: true });
  const standIns = { count: 0, bytes: 0 };
  for (const k of BACKUP_KINDS) {
    const from = paths.records(dir, k.name);
    if (!existsSync(from)) continue;
    const out = createWriteStream(paths.records(to, k.name));
    const types = k.itemType ? schemas.get(k.itemType) : undefined;
    for await (const r of lines(from)) {
      const rec = anonymize(k.name, r, fakes, types);
      if (k.name === 'files' && r.id !== undefined && r.id !== null) {
        // A file's content is the customers': the copy holds a stand-in, so the file (its fake name, its links) is still restored.
        const body = Buffer.from(`Anonymized copy of file ${String(r.id)}: its content stays in the account.\n`);
        mkdirSync(paths.files(to), { recursive: true });
        writeFileSync(paths.file(to, String(r.id)), body);
        rec.bytes_sha256 = `sha256:${createHash('sha256').update(body).digest('hex')}`;
        standIns.count++;
        standIns.bytes += body.length;
      }
      if (!out.write(`${JSON.stringify(rec)}\n`)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  }
  copyText(join(dir, 'fields'), join(to, 'fields'), (s) => scrub.text(s));
  copyText(paths.config(dir), paths.config(to), (s) => scrub.text(s));
  writeJsonAtomic(paths.manifest(to), { ...manifest, kinds: await manifestKinds(to), files: { ...standIns, skipped: 0 } });
}

/** One record with its people's data replaced (a copy). */
export function anonymize(kind: string, r: Rec, fakes: Pseudonyms, customTypes?: Map<string, string>): Rec {
  const out: Rec = { ...r };
  for (const [f, k] of Object.entries(FAKE[kind] ?? {})) {
    if (!(f in out)) continue;
    out[f] = k === 'email' || k === 'phone' ? fakes.fakeList(k, out[f]) : fakes.fake(k, out[f]);
  }
  for (const f of DROP[kind] ?? []) if (f in out) out[f] = null;
  if (kind === 'persons' && typeof out.name === 'string') {
    // The fake's two words stand for the first and last name, so the three agree as a person's do.
    const [first, ...rest] = out.name.split(' ');
    if ('first_name' in out) out.first_name = first ?? null;
    if ('last_name' in out) out.last_name = rest.join(' ') || null;
  }
  if (kind === 'files' && typeof r.file_name === 'string') out.file_name = `${String(out.file_name)}${/\.[A-Za-z0-9]{1,8}$/.exec(r.file_name)?.[0] ?? ''}`;
  if (customTypes) {
    const keep = (key: string) => SAFE_CUSTOM_TYPES.has(customTypes.get(key.replace(/_(currency|until|timezone_id)$/, '')) ?? '');
    if (out.custom_fields && typeof out.custom_fields === 'object') {
      out.custom_fields = Object.fromEntries(Object.entries(out.custom_fields as Rec).map(([key, v]) => [key, keep(key) ? v : null]));
    }
    // v1 records (leads) hold custom fields at the top level by key.
    for (const key of Object.keys(out)) if (CUSTOM_KEY.test(key) && !keep(key)) out[key] = null;
  }
  return out;
}

/** The plain values of a field: a text, or the `value` of each entry of a list of e-mails or phones. */
function plainValues(v: unknown): unknown[] {
  if (Array.isArray(v)) return v.map((x) => (x && typeof x === 'object' ? (x as Rec).value : x));
  return [v];
}

/** Copies a folder of text files (configuration, field catalogs) through `map`. */
function copyText(from: string, to: string, map: (s: string) => string): void {
  if (!existsSync(from)) return;
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from)) {
    const src = join(from, f);
    if (statSync(src).isDirectory()) copyText(src, join(to, f), map);
    else writeFileSync(join(to, f), map(readFileSync(src, 'utf8')));
  }
}
