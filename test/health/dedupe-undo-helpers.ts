// What the dedupe-undo tests share: the account as a person sees it (ids aside) and the links they give the demo's duplicates.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runBin } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';

type Rec = Record<string, any> & { id: number; is_deleted?: boolean };
const alive = async (fx: SandboxFixture, kind: string) => (await fx.collection<Rec>(kind)).filter((r) => r.is_deleted !== true && r.active_flag !== false);
// An address part the seed left out and one the service keeps as null are the same: unset.
const set = (a: Record<string, unknown> | null | undefined) => (a ? Object.fromEntries(Object.entries(a).filter(([, v]) => v !== null)) : null);
const contacts = (list: Array<{ value: string; primary: boolean; label: string }> | undefined) => (list ?? []).map((c) => `${c.value}|${c.primary}|${c.label}`);

/**
 * The account as a person sees it, ids aside: persons and organizations by name, each link by the name
 * it points to (deals, activities, notes, leads archived or not, deal participants, followers of persons
 * and organizations, files).
 */
export async function snapshot(fx: SandboxFixture): Promise<Record<string, unknown>> {
  const persons = await alive(fx, 'persons');
  const orgs = await alive(fx, 'organizations');
  const deals = await alive(fx, 'deals');
  const personName = new Map(persons.map((p) => [p.id, p.name]));
  const orgName = new Map(orgs.map((o) => [o.id, o.name]));
  const dealTitle = new Map(deals.map((d) => [d.id, d.title]));
  const name = (m: Map<number, string>, id: unknown) => (id === null || id === undefined ? null : (m.get(id as number) ?? `gone:${String(id)}`));
  const sorted = (rows: string[]) => rows.sort();
  const followed = (f: Rec) => (f.object === 'person' ? name(personName, f.item_id) : name(orgName, f.item_id));
  return {
    persons: sorted(persons.map((p) => JSON.stringify([p.name, contacts(p.emails), contacts(p.phones), name(orgName, p.org_id), p.owner_id]))),
    organizations: sorted(orgs.map((o) => JSON.stringify([o.name, set(o.address), o.owner_id]))),
    deals: sorted(deals.map((d) => JSON.stringify([d.title, name(personName, d.person_id), name(orgName, d.org_id)]))),
    activities: sorted((await alive(fx, 'activities')).map((a) => JSON.stringify([a.subject, name(personName, a.person_id), name(orgName, a.org_id)]))),
    notes: sorted((await alive(fx, 'notes')).map((n) => JSON.stringify([n.content, name(personName, n.person_id), name(orgName, n.org_id)]))),
    leads: sorted((await alive(fx, 'leads')).map((l) => JSON.stringify([l.title, name(personName, l.person_id), name(orgName, l.organization_id), l.is_archived === true]))),
    participants: sorted((await fx.collection<Rec>('dealParticipants')).map((p) => JSON.stringify([name(dealTitle, p.deal_id), name(personName, p.person_id)]))),
    followers: sorted((await fx.collection<Rec>('followers')).filter((f) => f.object === 'person' || f.object === 'organization').map((f) => JSON.stringify([f.object, followed(f), f.user_id]))),
    files: sorted((await alive(fx, 'files')).map((f) => JSON.stringify([f.name, name(personName, f.person_id), name(orgName, f.org_id)]))),
  };
}

/** Runs each command line; every one must succeed. Returns their stdouts. */
export async function runAll(fx: SandboxFixture, cwd: string, lines: string[][]): Promise<string[]> {
  const out: string[] = [];
  for (const args of lines) {
    const r = await runBin(args, { env: fx.env, cwd });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    out.push(r.stdout);
  }
  return out;
}

/** The demo's duplicates have no links of their own: give the merged ones (persons 11-13, organizations 7 and 8) a deal, an activity, a note, a person. */
export async function linkDuplicates(fx: SandboxFixture, cwd: string): Promise<void> {
  await runAll(fx, cwd, [
    ['deals', 'create', '--title', 'Deal of a duplicate', '--person-id', '11', '--org-id', '7'],
    ['deals', 'create', '--title', 'Second deal of a duplicate', '--person-id', '12'],
    ['activities', 'create', '--subject', 'Call the duplicate', '--person-id', '12', '--org-id', '8'],
    ['notes', 'create', '--content', 'Met the duplicate', '--person-id', '13'],
    ['notes', 'create', '--content', 'About the duplicate organization', '--org-id', '7'],
    ['persons', 'create', '--name', 'Worker at a duplicate', '--org-id', '8'],
  ]);
}

/**
 * What else a merge moves: leads (one archived), deal participations (deal 1: the kept person 1 takes
 * no part; deal 2: the kept person 2 takes part already), followers (user 3 follows 11, not its kept
 * person 1; user 2 follows 12 and, in the seed, its kept person 2), a file. Returns the ids of the leads made.
 */
export async function linkMore(fx: SandboxFixture, cwd: string): Promise<{ leads: string[] }> {
  const file = join(cwd, 'card.txt');
  writeFileSync(file, 'business card\n');
  const made = await runAll(fx, cwd, [
    ['leads', 'create', '--title', 'Lead of a duplicate', '--person-id', '11', '--json'],
    ['leads', 'create', '--title', 'Archived lead of a duplicate', '--person-id', '12', '--json'],
    ['leads', 'create', '--title', 'Lead of a duplicate organization', '--organization-id', '8', '--json'],
  ]);
  const leads = made.map((o) => String(JSON.parse(o).id));
  await runAll(fx, cwd, [
    ['leads', 'update', leads[1]!, '--is-archived', 'true'],
    ['deals', 'participants', 'add', '1', '--person-id', '11'],
    ['deals', 'participants', 'add', '2', '--person-id', '2'],
    ['deals', 'participants', 'add', '2', '--person-id', '12'],
    ['persons', 'followers', 'add', '11', '--user-id', '3'],
    ['persons', 'followers', 'add', '12', '--user-id', '2'],
    ['organizations', 'followers', 'add', '8', '--user-id', '2'],
    ['files', 'upload', '--file', file, '--person-id', '13'],
  ]);
  return { leads };
}

export const writes = async (fx: SandboxFixture) => (await fx.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
