import type { Operation } from '../../api/operation.js';
import type { CommandSpec } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { UsageError, ValidationError } from '../../core/errors.js';
import { commandFromOperation, runOperation, type BuiltInput } from '../from-operation.js';
import { orgFieldOp, readField } from './checks.js';

const addOp = orgFieldOp('organizationFields.addOptions');
const updateOp = orgFieldOp('organizationFields.updateOptions');
const deleteOp = orgFieldOp('organizationFields.deleteOptions');

const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/** The options ops take an array body; friendly flags build it, --data passes one through as is. */
function bodyFrom(opts: Record<string, unknown>, flag: string, build: () => unknown[]): Record<string, unknown> {
  const hasFlags = list(opts[flag]).length > 0;
  if (opts.data !== undefined && hasFlags) throw new UsageError(`give the options either with --${flag} or with --data, not both`);
  if (opts.data !== undefined) return opts;
  const items = build();
  if (!items.length) throw new ValidationError([{ field: `--${flag}`, rule: 'at least one option is needed (repeat the flag for more)' }]);
  return { ...opts, data: JSON.stringify(items) };
}

/**
 * The service applies option changes all or nothing; checking before sending that the field takes
 * options and that every named option exists gives the same answer without a failed write.
 */
function optionPreflight(flag: string, needIds: boolean) {
  return async (ctx: Context, input: BuiltInput): Promise<void> => {
    const field = await readField(ctx, String(input.params.field_code));
    if (field.field_type !== 'enum' && field.field_type !== 'set') {
      throw new ValidationError([{ field: '<field_code>', rule: `${field.field_code} is a ${field.field_type} field; only enum and set fields have options` }]);
    }
    if (!needIds) return;
    const known = new Map((field.options ?? []).map((o) => [String(o.id), o.label]));
    const missing = (input.body as Array<{ id: number }>).map((o) => o.id).filter((id) => !known.has(String(id)));
    if (missing.length) {
      const have = [...known].map(([id, label]) => `${id} (${label})`).join(', ') || 'none';
      throw new ValidationError([{ field: `--${flag}`, rule: `no option ${missing.join(', ')} on field ${field.field_code}; nothing was changed. Options: ${have}` }]);
    }
  };
}

function optionsCommand(op: Operation, extra: CommandSpec['options'], run: CommandSpec['run']): CommandSpec {
  const base = commandFromOperation(op);
  // The body is one array: --data replaces the friendly flags instead of being merged with them.
  const options = (base.options ?? []).map((o) => (o.flags.startsWith('--data ') ? { ...o, description: 'the whole JSON array instead of the flags (JSON, @file or - for stdin)' } : o));
  return { ...base, generated: false, options: [...(extra ?? []), ...options], run };
}

export const addOptionsCommand = optionsCommand(
  addOp,
  [{ flags: '--label <text>', description: 'label of a new option; repeat for each option', repeatable: true }],
  (ctx, { args, opts }) => {
    const rest = bodyFrom(opts, 'label', () => list(opts.label).map((label) => {
      if (!label.trim()) throw new ValidationError([{ field: '--label', rule: 'must not be empty' }]);
      return { label };
    }));
    return runOperation(ctx, addOp, args, rest, { preflight: optionPreflight('label', false) });
  },
);

export const updateOptionsCommand = optionsCommand(
  updateOp,
  [{ flags: '--option <id=label>', description: 'option id and its new label, e.g. "12=New label"; repeat for each option', repeatable: true }],
  (ctx, { args, opts }) => {
    const rest = bodyFrom(opts, 'option', () => list(opts.option).map((pair) => {
      const m = /^\s*(\d+)\s*=(.*)$/.exec(pair);
      if (!m || !m[2]!.trim()) throw new ValidationError([{ field: '--option', rule: `must be ID=LABEL with a numeric id and a label (got ${JSON.stringify(pair)})` }]);
      return { id: Number(m[1]), label: m[2]! };
    }));
    return runOperation(ctx, updateOp, args, rest, { preflight: optionPreflight('option', true) });
  },
);

export const deleteOptionsCommand = optionsCommand(
  deleteOp,
  [{ flags: '--id <ids>', description: 'option ids to delete, comma-separated or repeated', repeatable: true }],
  (ctx, { args, opts }) => {
    const rest = bodyFrom(opts, 'id', () => list(opts.id).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean).map((s) => {
      if (!/^\d+$/.test(s) || Number(s) < 1) throw new ValidationError([{ field: '--id', rule: `must be positive integer option ids (got ${JSON.stringify(s)})` }]);
      return { id: Number(s) };
    }));
    return runOperation(ctx, deleteOp, args, rest, { preflight: optionPreflight('id', true) });
  },
);
