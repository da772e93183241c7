import type { Context } from '../core/context.js';
import type { HttpPort } from '../core/http-port.js';

/**
 * Import columns that name a linked record instead of giving its id: "Organization" = "Initech",
 * "Person" = "Bill Lumbergh", "Owner" = "ana@example.com". A number in such a column is taken as the
 * id itself. Names are looked up once per import (one paged read of the list), case-insensitively;
 * a name that matches no record or several is reported on the rows that use it.
 */
export type RefKind = 'organization' | 'person' | 'user' | 'stage' | 'pipeline';

/** Header spellings (normalized) per kind. */
const HEADERS: Record<RefKind, string[]> = {
  organization: ['organization', 'organization_name', 'org', 'org_name', 'company'],
  person: ['person', 'person_name', 'contact', 'contact_name'],
  user: ['owner', 'owner_name', 'owner_email', 'user', 'user_email', 'user_name', 'assigned_to'],
  stage: ['stage', 'stage_name'],
  pipeline: ['pipeline', 'pipeline_name'],
};

/** The body field a kind fills, first one the operation has. */
const ID_FIELDS: Record<RefKind, string[]> = { organization: ['org_id', 'organization_id'], person: ['person_id'], user: ['owner_id', 'user_id'], stage: ['stage_id'], pipeline: ['pipeline_id'] };

/**
 * The name column an export writes beside each link id (and import reads back by name): ids are
 * this account's, names carry over to another. Users by email (names may repeat, emails do not).
 */
export const LINK_NAME_COLUMNS: ReadonlyArray<{ id: string; name: string; kind: RefKind }> = [
  { id: 'org_id', name: 'org_name', kind: 'organization' },
  { id: 'organization_id', name: 'organization_name', kind: 'organization' },
  { id: 'person_id', name: 'person_name', kind: 'person' },
  { id: 'owner_id', name: 'owner_email', kind: 'user' },
  { id: 'user_id', name: 'user_email', kind: 'user' },
  { id: 'stage_id', name: 'stage_name', kind: 'stage' },
  { id: 'pipeline_id', name: 'pipeline_name', kind: 'pipeline' },
];

export interface RefColumn {
  kind: RefKind;
  /** Body key the id goes to. */
  field: string;
}

/** A name a row gave, to be turned into an id. */
export interface NameRef extends RefColumn {
  name: string;
}

/** Header (normalized) → reference column, for the top-level body keys an operation has. */
export function refColumns(bodyKeys: ReadonlySet<string>): Map<string, RefColumn> {
  const out = new Map<string, RefColumn>();
  for (const kind of Object.keys(HEADERS) as RefKind[]) {
    const field = ID_FIELDS[kind].find((k) => bodyKeys.has(k));
    if (field) for (const h of HEADERS[kind]) out.set(h, { kind, field });
  }
  return out;
}

export const nameKey = (name: string) => name.trim().toLowerCase();

/** The key of a stage name within one pipeline (a row that names its pipeline too picks its stage there). */
export const stageInPipeline = (pipelineId: unknown, name: string) => `${String(pipelineId)}\u0000${nameKey(name)}`;

/** Resolved names: id per (kind, name key), or the rule a name broke (said after the name: `"Initech" matches no organization`). */
export interface ResolvedNames {
  ids: Map<RefKind, Map<string, number>>;
  problems: Map<RefKind, Map<string, string>>;
}

/** Looks up every wanted name: one paged read per kind that is used (organizations 10, persons 10, users 20 a page). */
export async function resolveNames(ctx: Context, http: HttpPort, wanted: Map<RefKind, Set<string>>): Promise<ResolvedNames> {
  const [{ paginate }, { prepare }] = await Promise.all([import('../api/call.js'), import('../entry/prepare.js')]);
  const ids = new Map<RefKind, Map<string, number>>();
  const problems = new Map<RefKind, Map<string, string>>();
  for (const [kind, names] of wanted) {
    if (!names.size) continue;
    const op = await listOf(kind);
    const hits = new Map<string, number[]>([...names].map((n) => [n, []]));
    const found = new Map<string, number>();
    for await (const rec of paginate(http, op, await prepare(ctx, op, {}), { all: true })) {
      const r = rec as { id?: unknown; name?: unknown; email?: unknown; pipeline_id?: unknown };
      if (typeof r.id !== 'number') continue;
      for (const label of [r.name, kind === 'user' ? r.email : undefined]) {
        if (typeof label === 'string') hits.get(nameKey(label))?.push(r.id);
      }
      // Stage names repeat across pipelines: each is also known within its pipeline (stageInPipeline).
      if (kind === 'stage' && typeof r.name === 'string' && hits.has(nameKey(r.name))) found.set(stageInPipeline(r.pipeline_id, r.name), r.id);
    }
    const bad = new Map<string, string>();
    for (const [name, list] of hits) {
      const unique = [...new Set(list)];
      if (unique.length === 1) found.set(name, unique[0]!);
      else if (!unique.length) bad.set(name, `matches no ${kind}${kind === 'user' ? ' (by name or email)' : ''}`);
      else bad.set(name, `matches ${unique.length} ${kind}s (ids ${unique.join(', ')}); give the id instead${kind === 'stage' ? ', or name the pipeline too (pipeline_name)' : ''}`);
    }
    ctx.debug(`import: ${[...found.keys()].filter((k) => !k.includes('\u0000')).length} of ${names.size} ${kind} names matched`);
    ids.set(kind, found);
    problems.set(kind, bad);
  }
  return { ids, problems };
}

export async function listOf(kind: RefKind) {
  if (kind === 'organization') return (await import('../api/operations/organizations.js')).organizationOps.list;
  if (kind === 'person') return (await import('../api/operations/persons.js')).personOps.list;
  if (kind === 'stage') return (await import('../api/operations/stages.js')).stageOps.list;
  if (kind === 'pipeline') return (await import('../api/operations/pipelines.js')).pipelineOps.list;
  return (await import('../api/operations/users.js')).userOps.list;
}
