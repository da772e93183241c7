import type { CommandExtension } from '../operation-command.js';

// `filters create --where "Budget > 1000" --where "Stage = Qualified"`: conditions by field name,
// operator and option label. The flags fill the body's `where` / `or_where`, which the entry
// (src/entry/prepare.ts → src/names/conditions.ts) builds into the condition tree for every door, so the
// tree then meets the same rules and limits as one given with --conditions.

const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

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
  adjust(_ctx, raw, opts) {
    const where = list(opts.where);
    const orWhere = list(opts.orWhere);
    if (!where.length && !orWhere.length) return raw;
    // The flags win over the same keys of --data, as every flag does.
    const body = { ...((raw.body ?? {}) as Record<string, unknown>) };
    if (where.length) body.where = where;
    if (orWhere.length) body.or_where = orWhere;
    return { ...raw, body };
  },
};
