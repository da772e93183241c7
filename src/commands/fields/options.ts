import type { Operation } from '../../api/operation.js';
import type { Context } from '../../core/context.js';
import { UsageError, ValidationError } from '../../core/errors.js';
import type { RawInput, ValidInput } from '../../input/operation-input.js';
import type { CommandExtension } from '../operation-command.js';
import { readField } from './checks.js';

const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/**
 * The option operations take one array body. Friendly repeatable flags build it; --data passes a
 * whole array through instead (not merged with the flags).
 */
function arrayBody(flag: string, description: string, build: (values: string[]) => unknown[], preflight: CommandExtension['preflight']): CommandExtension {
  return {
    options: [{ flags: `--${flag} <${flag === 'option' ? 'id=label' : flag === 'id' ? 'ids' : 'text'}>`, description, repeatable: true }],
    adjust(_ctx: Context, raw: RawInput, opts: Record<string, unknown>): RawInput {
      const values = list(opts[flag]);
      if (raw.body !== undefined && values.length) throw new UsageError(`give the options either with --${flag} or with --data, not both`);
      if (raw.body !== undefined) return raw;
      const items = build(values);
      if (!items.length) throw new ValidationError([{ field: `--${flag}`, rule: 'at least one option is needed (repeat the flag for more)' }]);
      return { ...raw, body: items };
    },
    preflight,
  };
}

/**
 * The service applies option changes all or nothing; checking before sending that the field takes
 * options and that every named option exists gives the same answer without a failed write.
 */
function optionPreflight(get: Operation, flag: string, needIds: boolean) {
  return async (ctx: Context, input: ValidInput): Promise<void> => {
    const field = await readField(ctx, get, String(input.params.field_code));
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

export const addOptions = (get: Operation) => arrayBody('label', 'label of a new option; repeat for each option', (values) => values.map((label) => {
  if (!label.trim()) throw new ValidationError([{ field: '--label', rule: 'must not be empty' }]);
  return { label };
}), optionPreflight(get, 'label', false));

export const updateOptions = (get: Operation) => arrayBody('option', 'option id and its new label, e.g. "12=New label"; repeat for each option', (values) => values.map((pair) => {
  const m = /^\s*(\d+)\s*=(.*)$/.exec(pair);
  if (!m || !m[2]!.trim()) throw new ValidationError([{ field: '--option', rule: `must be ID=LABEL with a numeric id and a label (got ${JSON.stringify(pair)})` }]);
  return { id: Number(m[1]), label: m[2]! };
}), optionPreflight(get, 'option', true));

export const deleteOptions = (get: Operation) => arrayBody('id', 'option ids to delete, comma-separated or repeated', (values) => values.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean).map((s) => {
  if (!/^\d+$/.test(s) || Number(s) < 1) throw new ValidationError([{ field: '--id', rule: `must be positive integer option ids (got ${JSON.stringify(s)})` }]);
  return { id: Number(s) };
}), optionPreflight(get, 'id', true));
