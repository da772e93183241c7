import { UsageError, ValidationError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { extension, type CommandExtension } from '../operation-command.js';

/**
 * The option operations take one array body. Friendly repeatable flags build it; --data passes a
 * whole array through instead (not merged with the flags).
 */
function arrayBody(name: 'label' | 'option' | 'id', description: string, build: (values: string[]) => unknown[]): CommandExtension {
  return extension({
    flags: { [name]: flag.list({ value: name === 'option' ? 'id=label' : name === 'id' ? 'ids' : 'text', description }) },
    adjust(_ctx, raw, flags) {
      const values = flags[name]!;
      if (raw.body !== undefined && values.length) throw new UsageError(`give the options either with --${name} or with --data, not both`);
      if (raw.body !== undefined) return raw;
      const items = build(values);
      if (!items.length) throw new ValidationError([{ field: `--${name}`, rule: 'at least one option is needed (repeat the flag for more)' }]);
      return { ...raw, body: items };
    },
  });
}

export const addOptions = () => arrayBody('label', 'label of a new option; repeat for each option', (values) => values.map((label) => {
  if (!label.trim()) throw new ValidationError([{ field: '--label', rule: 'must not be empty' }]);
  return { label };
}));

export const updateOptions = () => arrayBody('option', 'option id and its new label, e.g. "12=New label"; repeat for each option', (values) => values.map((pair) => {
  const m = /^\s*(\d+)\s*=(.*)$/.exec(pair);
  if (!m || !m[2]!.trim()) throw new ValidationError([{ field: '--option', rule: `must be ID=LABEL with a numeric id and a label (got ${JSON.stringify(pair)})` }]);
  return { id: Number(m[1]), label: m[2]! };
}));

export const deleteOptions = () => arrayBody('id', 'option ids to delete, comma-separated or repeated', (values) => values.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean).map((s) => {
  if (!/^\d+$/.test(s) || Number(s) < 1) throw new ValidationError([{ field: '--id', rule: `must be positive integer option ids (got ${JSON.stringify(s)})` }]);
  return { id: Number(s) };
}));
