import { organizationFieldOps } from '../../api/operations/organization-fields.js';
import { UsageError, ValidationError } from '../../core/errors.js';
import { defineArea } from '../define-area.js';
import { fieldPreflight } from './checks.js';
import { addOptions, deleteOptions, updateOptions } from './options.js';

/** `--option LABEL` (repeatable) on create, instead of an options JSON array. */
const optionLabels = {
  options: [{ flags: '--option <label>', description: 'an option of an enum or set field; repeat for each option', repeatable: true }],
  adjust(_ctx: unknown, raw: { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown }, opts: Record<string, unknown>) {
    const labels = (opts.option as string[] | undefined) ?? [];
    if (!labels.length) return raw;
    if (opts.options !== undefined) throw new UsageError('give the options either with --option (repeatable) or with --options JSON, not both');
    return { ...raw, body: { ...(raw.body as object), options: labels.map((label) => ({ label })) } };
  },
  // The options came from --option: name that flag, not the JSON one.
  explain: (err: unknown, opts: Record<string, unknown>) =>
    err instanceof ValidationError && opts.option !== undefined ? new ValidationError(err.issues.map((i) => (i.field === '--options' ? { ...i, field: '--option' } : i)), err.hint) : err,
};

export const area = defineArea(organizationFieldOps, {
  extend: {
    create: { ...optionLabels, preflight: fieldPreflight },
    update: { preflight: fieldPreflight },
    addOptions,
    updateOptions,
    deleteOptions,
  },
  groups: { 'organization-fields options': 'Options of enum and set organization fields (add, relabel, delete; all or nothing)' },
});
