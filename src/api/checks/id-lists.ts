import { dealFieldOps } from '../operations/deal-fields.js';
import { dealOps } from '../operations/deals.js';
import { organizationFieldOps } from '../operations/organization-fields.js';
import { organizationOps } from '../operations/organizations.js';
import { personFieldOps } from '../operations/person-fields.js';
import { personOps } from '../operations/persons.js';
import { projectFieldOps } from '../operations/project-fields.js';
import type { Operation } from '../operation.js';
import { AuthError, NotFoundError, ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../entry-types.js';
import type { CheckReader } from '../entry-types.js';

/**
 * Where the ids of one kind live: labels are the options of a field of their item type (read once per
 * run: the reader's memo keeps the answer, so an import of 10k rows reads each label field once), records
 * are read by id (each id once per run).
 */
type Source =
  | { kind: 'options'; fields: () => Operation; code: string; noun: string; see: string }
  | { kind: 'records'; get: () => Operation; noun: string; see: string };

const LABELS = {
  person: { kind: 'options', fields: () => personFieldOps.get!, code: 'label_ids', noun: 'person label', see: 'crmctl person-fields get label_ids' },
  organization: { kind: 'options', fields: () => organizationFieldOps.get!, code: 'label_ids', noun: 'organization label', see: 'crmctl organization-fields get label_ids' },
  deal: { kind: 'options', fields: () => dealFieldOps.get!, code: 'label', noun: 'deal label', see: 'crmctl deal-fields get label' },
  project: { kind: 'options', fields: () => projectFieldOps.get!, code: 'label_ids', noun: 'project label', see: 'crmctl project-fields get label_ids' },
} satisfies Record<string, Source>;

const RECORDS = {
  deal: { kind: 'records', get: () => dealOps.get!, noun: 'deal', see: 'crmctl deals list' },
  person: { kind: 'records', get: () => personOps.get!, noun: 'person', see: 'crmctl persons list' },
  organization: { kind: 'records', get: () => organizationOps.get!, noun: 'organization', see: 'crmctl organizations list' },
} satisfies Record<string, Source>;

/** The id lists of each operation's body, by body key. */
const LISTS: Record<string, Record<string, Source>> = {
  'persons.create': { label_ids: LABELS.person },
  'persons.update': { label_ids: LABELS.person },
  'organizations.create': { label_ids: LABELS.organization },
  'organizations.update': { label_ids: LABELS.organization },
  'deals.create': { label_ids: LABELS.deal },
  'deals.update': { label_ids: LABELS.deal },
  'projects.create': { label_ids: LABELS.project, deal_ids: RECORDS.deal, person_ids: RECORDS.person, org_ids: RECORDS.organization },
  'projects.update': { label_ids: LABELS.project, deal_ids: RECORDS.deal, person_ids: RECORDS.person, org_ids: RECORDS.organization },
  'projects.createV1': { labels: LABELS.project, deal_ids: RECORDS.deal },
  'projects.updateV1': { labels: LABELS.project, deal_ids: RECORDS.deal },
};

/** The operation ids whose bodies carry id lists this module checks. */
export const ID_LIST_OPERATIONS = Object.keys(LISTS);

/** Reads that may fail because this token cannot see what they read: the service then has the last word. */
async function unlessForbidden<T>(ctx: CheckReader, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    ctx.debug(`preflight skipped: ${err.message}`);
    return undefined;
  }
}

/** The ids of `want` that do not exist in the account, or undefined when this reader cannot tell. */
async function missing(ctx: CheckReader, source: Source, want: Array<string | number>): Promise<Array<string | number> | undefined> {
  if (source.kind === 'options') {
    const field = await unlessForbidden(ctx, async () => {
      try {
        return (await ctx.read(source.fields(), { params: { field_code: source.code } })) as { options?: Array<{ id: number }> | null } | null;
      } catch (err) {
        // An account without the field: nothing to check against, the service decides.
        if (err instanceof NotFoundError) return undefined;
        throw err;
      }
    });
    if (!field) return undefined;
    const known = new Set((field.options ?? []).map((o) => o.id));
    return want.filter((id) => !known.has(id as number));
  }
  const gone: Array<string | number> = [];
  for (const id of new Set(want)) {
    const found = await unlessForbidden(ctx, async () => {
      try {
        await ctx.read(source.get(), { params: { id } });
        return true;
      } catch (err) {
        if (err instanceof NotFoundError) return false;
        throw err;
      }
    });
    if (found === false) gone.push(id);
  }
  return gone;
}

/**
 * Every id of a body's id lists names something the account has: a label of the item type, a deal, a
 * person, an organization. An unknown id is refused naming the field and the id, before anything is sent
 * (a person list exported from one account and imported into another carries the first account's label
 * ids; the service refuses each such row).
 */
export function idListsPreflight(opId: string) {
  const lists = LISTS[opId] ?? {};
  return async (ctx: CheckReader, input: ValidInput): Promise<void> => {
    const body = (input.body ?? {}) as Record<string, unknown>;
    const issues: Array<{ field: string; rule: string }> = [];
    for (const [key, source] of Object.entries(lists)) {
      const ids = body[key];
      if (!Array.isArray(ids) || !ids.length) continue;
      const bad = await missing(ctx, source, ids as Array<string | number>);
      if (bad?.length) issues.push({ field: `--${key.replace(/_/g, '-')}`, rule: `no such ${source.noun}: ${bad.join(', ')} (see ${source.see})` });
    }
    if (issues.length) throw new ValidationError(issues);
  };
}
