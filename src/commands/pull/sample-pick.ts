import type { Operation } from '../../api/operation.js';
import { read, readAll, type Reader } from '../../entry/prepare.js';
import { NotFoundError } from '../../core/errors.js';
import { findExportResource } from '../../automation/resources.js';
import type { SampleKind } from './sample-policy.js';

export type Rec = Record<string, unknown>;

/** The records of a sample, per kind, each kind at most `count` long, every link inside the sample. */
export type Picked = Record<SampleKind, Rec[]>;

/** A link as records give it: the id, or an object holding it ({value}, {id}). */
export function linkId(v: unknown): string | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  if (typeof v === 'object') return linkId((v as Rec).value ?? (v as Rec).id);
  return String(v);
}

const listOp = (kind: SampleKind): Operation => findExportResource(kind)!.op;

/**
 * Picks the sample greedily in list order: deals first, each taken only if its person and
 * organization (and that person's organization) still fit in `count`; then more persons whose
 * organization fits, more organizations, and activities whose deal, person and organization are all
 * in the sample. A link to a record that cannot be read (deleted, not visible) is left empty.
 * Persons and organizations a deal needs are read by id, so a large account is not listed whole.
 */
export async function pickSample(reader: Reader, count: number): Promise<Picked> {
  const [{ personOps }, { organizationOps }] = await Promise.all([import('../../api/operations/persons.js'), import('../../api/operations/organizations.js')]);
  const byId = async (op: Operation, id: string): Promise<Rec | undefined> => {
    try {
      return ((await read(reader, op, { params: { id } })) ?? undefined) as Rec | undefined;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  };
  const persons = new Map<string, Rec>();
  const orgs = new Map<string, Rec>();
  const known = new Map<string, Rec | undefined>();
  const org = async (id: string | undefined) => {
    if (id === undefined) return undefined;
    const k = `o${id}`;
    if (!known.has(k)) known.set(k, orgs.get(id) ?? (await byId(organizationOps.get, id)));
    return known.get(k);
  };
  const person = async (id: string | undefined) => {
    if (id === undefined) return undefined;
    const k = `p${id}`;
    if (!known.has(k)) known.set(k, persons.get(id) ?? (await byId(personOps.get, id)));
    return known.get(k);
  };
  /** A person as the sample holds it: its organization link emptied when that cannot be read. */
  const settled = async (p: Rec): Promise<Rec> => (linkId(p.org_id) !== undefined && !(await org(linkId(p.org_id))) ? { ...p, org_id: null } : p);

  const deals: Rec[] = [];
  for await (const r of readAll(reader, listOp('deals'))) {
    if (deals.length >= count) break;
    const d = { ...(r as Rec) };
    const p = await person(linkId(d.person_id));
    if (!p) d.person_id = null;
    const o = await org(linkId(d.org_id));
    if (!o) d.org_id = null;
    const pp = p ? await settled(p) : undefined;
    const newOrgs = new Set([linkId(d.org_id), linkId(pp?.org_id)].filter((x): x is string => x !== undefined && !orgs.has(x)));
    const newPerson = pp && !persons.has(String(pp.id)) ? 1 : 0;
    if (persons.size + newPerson > count || orgs.size + newOrgs.size > count) continue;
    if (pp) persons.set(String(pp.id), pp);
    for (const id of newOrgs) orgs.set(id, (await org(id))!);
    deals.push(d);
  }
  // A list whose kind is already full is not read at all (the first page would be a wasted request).
  for await (const r of persons.size < count ? readAll(reader, listOp('persons')) : []) {
    if (persons.size >= count) break;
    const p = await settled(r as Rec);
    const o = linkId(p.org_id);
    if (persons.has(String(p.id)) || (o !== undefined && !orgs.has(o) && orgs.size >= count)) continue;
    persons.set(String(p.id), p);
    if (o !== undefined && !orgs.has(o)) orgs.set(o, (await org(o))!);
  }
  for await (const r of orgs.size < count ? readAll(reader, listOp('organizations')) : []) {
    if (orgs.size >= count) break;
    const o = r as Rec;
    if (!orgs.has(String(o.id))) orgs.set(String(o.id), o);
  }
  const dealIds = new Set(deals.map((d) => String(d.id)));
  const inside = (v: unknown, set: { has(id: string): boolean }) => linkId(v) === undefined || set.has(linkId(v)!);
  const activities: Rec[] = [];
  for await (const r of readAll(reader, listOp('activities'))) {
    if (activities.length >= count) break;
    const a = r as Rec;
    if (inside(a.deal_id, dealIds) && inside(a.person_id, persons) && inside(a.org_id, orgs)) activities.push(a);
  }
  const byIdOrder = (a: Rec, b: Rec) => Number(a.id) - Number(b.id);
  return { organizations: [...orgs.values()].sort(byIdOrder), persons: [...persons.values()].sort(byIdOrder), deals: deals.sort(byIdOrder), activities: activities.sort(byIdOrder) };
}
