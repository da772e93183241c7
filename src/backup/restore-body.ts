/**
 * A portable record (portable.ts) → the body a create takes in the target account: names back to the
 * target's ids (users by e-mail through --map-user / --default-user, labels, stages, pipelines, lead
 * labels, boards, phases); custom fields stay by name under `fields` (the one entry turns them into the
 * target's keys and option ids); only the members the create takes are sent, the others are named.
 */
import { backupKind, type ItemType } from './kinds.js';
import type { RestoreStep } from './restore-plan.js';
import type { Side } from './side.js';

type Rec = Record<string, unknown>;

/** Users of the backup → users of the target, by e-mail. */
export class UserMap {
  private readonly pairs = new Map<string, string>();
  private readonly defaulted: string[] = [];
  private readonly missing: string[] = [];

  constructor(source: Side, private readonly target: Side, mapUser: Record<string, string>, defaultUser?: string) {
    const map = new Map(Object.entries(mapUser).map(([a, b]) => [a.toLowerCase(), b.toLowerCase()]));
    for (const u of source.data.users) {
      const email = typeof u.email === 'string' ? u.email.toLowerCase() : undefined;
      if (!email) continue;
      const want = map.get(email) ?? email;
      if (target.idOf('users', want) !== undefined) this.pairs.set(email, want);
      else if (defaultUser) {
        this.pairs.set(email, defaultUser.toLowerCase());
        this.defaulted.push(email);
      } else this.missing.push(map.has(email) ? `${email} (mapped to ${want}, which is not a user here either)` : email);
    }
  }

  /** Users with no counterpart and no default: the restore stops before sending (exit 2). */
  check(): string[] {
    return this.missing;
  }

  toDefault(): string[] {
    return this.defaulted;
  }

  mappedPairs(): Record<string, string> {
    return Object.fromEntries([...this.pairs].filter(([a, b]) => a !== b));
  }

  /** A backup user's e-mail → the target's user id. */
  idOf(email: string): unknown {
    const to = this.pairs.get(email.toLowerCase());
    return to === undefined ? undefined : this.target.idOf('users', to);
  }
}

const BY_NAME = new Set(['pipelines', 'stages', 'lead-labels', 'boards', 'phases']);

export interface Built {
  body: Rec;
  /** Members the create does not take (read-only, or not writable through this create). */
  dropped: string[];
  /** Names with no counterpart in the target: `stage_id Sales / Won`. */
  unmapped: string[];
}

export function fromPortable(target: Side, users: UserMap, step: RestoreStep, rec: Rec, accepted: Set<string>): Built {
  const k = backupKind(step.kind)!;
  const item = k.itemType;
  const body: Rec = {};
  const dropped: string[] = [];
  const unmapped: string[] = [];
  const one = (field: string, to: string, v: unknown): unknown => {
    let got: unknown;
    if (to === 'users') got = users.idOf(String(v));
    else if (to === 'labels') got = item ? target.labelId(item as ItemType, String(v)) : undefined;
    else if (to.startsWith('option:')) {
      // The create takes the option's id (a number): the target's option of that label.
      const id = item ? target.optionId(item as ItemType, to.slice('option:'.length), String(v)) : undefined;
      got = id === undefined ? undefined : Number(id);
    }
    else if (BY_NAME.has(to)) got = target.idOf(to, String(v));
    else return v; // a record link: already the target's id (the id map)
    if (got === undefined) unmapped.push(`${field} ${JSON.stringify(v)}`);
    return got;
  };
  for (const [key0, v] of Object.entries(rec)) {
    if (step.parent && key0 === step.parent.key) continue; // the path's id
    const key = step.renames?.[key0] ?? key0;
    if (key === 'fields') {
      body.fields = customForTarget(target, users, item, v as Rec);
      continue;
    }
    if (!accepted.has(key)) {
      // Archived state is carried by the archive step that follows the create (restore-plan.ts).
      if (key0 !== 'is_archived') dropped.push(key0);
      continue;
    }
    const to = k.links[key0];
    if (to) {
      const mapped = Array.isArray(v) ? v.map((x) => one(key0, to, x)).filter((x) => x !== undefined) : one(key0, to, v);
      if (mapped !== undefined) body[key] = mapped;
      continue;
    }
    body[key] = v;
  }
  fixups(step.kind, body, dropped);
  return { body, dropped, unmapped };
}

/** Custom values by name: a user field's e-mail becomes the target's user id (the entry reads the rest). */
function customForTarget(target: Side, users: UserMap, item: string | undefined, fields: Rec): Rec {
  const defs = new Map((item ? target.fieldsOf(item as ItemType) : []).filter((f) => f.custom).map((f) => [f.name, f]));
  const out: Rec = {};
  for (const [name, v] of Object.entries(fields)) {
    const f = defs.get(name);
    out[name] = f?.field_type === 'user' && typeof v === 'string' ? (users.idOf(v) ?? v) : v;
  }
  return out;
}

/** What a create takes in another form than the list gives it. */
function fixups(kind: string, body: Rec, dropped: string[]): void {
  if (kind === 'tasks') {
    // The v2 task create takes 0/1 where the list answers booleans.
    for (const k of ['done', 'milestone']) if (typeof body[k] === 'boolean') body[k] = body[k] ? 1 : 0;
  }
  if (kind === 'products') {
    if (Array.isArray(body.prices)) body.prices = (body.prices as Rec[]).map(({ product_id: _p, ...price }) => price);
  }
  if (kind === 'files') fileFixups(dropped);
}

/** What an upload carries besides its links (every one, mapped): the part's file name names the file, the bytes are the part, the service stores it as an upload; the description follows it (restore-plan.ts `after`). */
const FILE_CARRIED = new Set(['file_name', 'name', 'bytes_sha256', 'remote_location', 'inline_flag', 'description']);

function fileFixups(dropped: string[]): void {
  for (let i = dropped.length - 1; i >= 0; i--) if (FILE_CARRIED.has(dropped[i]!)) dropped.splice(i, 1);
}
