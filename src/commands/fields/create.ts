import { UsageError, ValidationError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { extension } from '../operation-command.js';

/** `--option LABEL` (repeatable) on create, instead of an options JSON array. */
export const optionLabels = extension({
  flags: { option: flag.list({ value: 'label', description: 'an option of an enum or set field; repeat for each option' }) },
  adjust(_ctx, raw, flags, tableOpts) {
    const labels = flags.option;
    if (!labels.length) return raw;
    if (tableOpts.options !== undefined) throw new UsageError('give the options either with --option (repeatable) or with --options JSON, not both');
    return { ...raw, body: { ...(raw.body as object), options: labels.map((label) => ({ label })) } };
  },
  // The options came from --option: name that flag, not the JSON one.
  explain: (err, flags) =>
    err instanceof ValidationError && flags.option.length ? new ValidationError(err.issues.map((i) => (i.field === '--options' ? { ...i, field: '--option' } : i)), err.hint) : err,
});
