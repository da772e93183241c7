import type { CommandSpec } from '../../core/command.js';
import { UsageError, ValidationError } from '../../core/errors.js';
import { commandFromOperation, runOperation } from '../from-operation.js';
import { fieldPreflight, orgFieldOp } from './checks.js';

const createOp = orgFieldOp('organizationFields.create');
const updateOp = orgFieldOp('organizationFields.update');
const generatedCreate = commandFromOperation(createOp);

/** `org-fields create`: the generated flags plus `--option LABEL` (repeatable) instead of an options JSON array. */
export const createCommand: CommandSpec = {
  ...generatedCreate,
  generated: false,
  options: (generatedCreate.options ?? []).flatMap((o) =>
    o.flags.startsWith('--options ')
      ? [{ flags: '--option <label>', description: 'an option of an enum or set field; repeat for each option', repeatable: true }, o]
      : [o],
  ),
  async run(ctx, { args, opts }) {
    const labels = (opts.option as string[] | undefined) ?? [];
    const rest = { ...opts };
    delete rest.option;
    if (labels.length) {
      if (opts.options !== undefined) throw new UsageError('give the options either with --option (repeatable) or with --options JSON, not both');
      rest.options = JSON.stringify(labels.map((label) => ({ label })));
    }
    try {
      await runOperation(ctx, createOp, args, rest, { preflight: fieldPreflight });
    } catch (err) {
      // The options came from --option: name that flag, not the JSON one.
      if (!(err instanceof ValidationError) || !labels.length) throw err;
      throw new ValidationError(err.issues.map((i) => (i.field.startsWith('--options') ? { ...i, field: '--option' } : i)), err.hint);
    }
  },
};

/** `org-fields update`: generated flags, with the checks that need the stored field and the stages. */
export const updateCommand: CommandSpec = {
  ...commandFromOperation(updateOp),
  generated: false,
  run: (ctx, { args, opts }) => runOperation(ctx, updateOp, args, opts, { preflight: fieldPreflight }),
};
