import { UsageError, ValidationError } from '../../core/errors.js';
import type { RawInput } from '../../input/operation-input.js';
import type { CommandExtension } from '../operation-command.js';

/** `--option LABEL` (repeatable) on create, instead of an options JSON array. */
export const optionLabels: CommandExtension = {
  options: [{ flags: '--option <label>', description: 'an option of an enum or set field; repeat for each option', repeatable: true }],
  adjust(_ctx, raw: RawInput, opts) {
    const labels = (opts.option as string[] | undefined) ?? [];
    if (!labels.length) return raw;
    if (opts.options !== undefined) throw new UsageError('give the options either with --option (repeatable) or with --options JSON, not both');
    return { ...raw, body: { ...(raw.body as object), options: labels.map((label) => ({ label })) } };
  },
  // The options came from --option: name that flag, not the JSON one.
  explain: (err, opts) =>
    err instanceof ValidationError && opts.option !== undefined ? new ValidationError(err.issues.map((i) => (i.field === '--options' ? { ...i, field: '--option' } : i)), err.hint) : err,
};
