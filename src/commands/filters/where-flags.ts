import { ValidationError } from '../../core/errors.js';
import type { Context } from '../../core/context.js';
import type { CommandExtension, RawInput } from '../operation-command.js';

// `filters create --where "Budget > 1000" --where "Stage = Qualified"`: conditions by field name,
// operator and option label, built into the condition tree before the entry checks it (the tree is
// then the same as one given with --conditions, so its rules and limits apply unchanged).

const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/** The item type the names are about: --type of a new filter; an existing one's own type (one read of it). */
async function typeOf(ctx: Context, raw: RawInput, body: Record<string, unknown>): Promise<string> {
  if (raw.params.id === undefined) {
    if (typeof body.type !== 'string') throw new ValidationError([{ field: '--type', rule: 'is required with --where: the item type decides which fields the names mean' }]);
    return body.type;
  }
  const [{ read }, { filterOps }] = await Promise.all([import('../../api/prepare.js'), import('../../api/operations/filters.js')]);
  const filter = (await read(ctx, filterOps.get, { params: { id: raw.params.id } })) as { type?: unknown };
  return String(filter.type);
}

/** --where/--or-where on filters create and update (an update's conditions replace the filter's). */
export const whereFlags: CommandExtension = {
  examples: [
    'crmctl filters create --name "Big enterprise deals" --type deals --where "Budget > 1000" --where "Segment = Enterprise" --where "Stage = Qualified"',
    'crmctl filters create --name "Mine or unassigned" --type deals --or-where "Owner = Ada Admin" --or-where "Owner is empty"',
    'crmctl filters create --name "Big open deals" --type deals --conditions @conditions.json',
  ],
  options: [
    { flags: '--where <condition>', description: 'a condition NAME OP VALUE, all of which must hold (repeatable): a field\'s name, one of = != < > <= >= "is empty" "is not empty" "contains" "starts with" "does not start with", and a value (an option\'s label, a stage\'s name or Pipeline/Stage, a user\'s name)', repeatable: true },
    { flags: '--or-where <condition>', description: 'a condition of which at least one must hold (repeatable; same form as --where)', repeatable: true },
  ],
  async adjust(ctx, raw, opts) {
    const where = list(opts.where);
    const orWhere = list(opts.orWhere);
    if (!where.length && !orWhere.length) return raw;
    const body = (raw.body ?? {}) as Record<string, unknown>;
    if (body.conditions !== undefined) throw new ValidationError([{ field: '--where', rule: 'cannot be combined with --conditions (give the conditions one way)' }]);
    const { conditionsFromWhere } = await import('./where-resolve.js');
    return { ...raw, body: { ...body, conditions: await conditionsFromWhere(ctx, await typeOf(ctx, raw, body), where, orWhere) } };
  },
};
