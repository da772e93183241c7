// `--custom-field KEY=VALUE` (repeatable) for project create/update. The values are folded into
// the body's custom_fields before the schemas check it, so --data, --custom-fields JSON and these
// flags end up in one object (later sources win per key).
import { CUSTOM_FIELD_KEY } from '../../api/operations/projects.js';
import { ValidationError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { extension } from '../operation-command.js';

/** KEY=VALUE → [key, value]; VALUE is JSON when it parses (numbers, null, arrays), else the text. */
export function parseCustomField(entry: string): [string, unknown] {
  const eq = entry.indexOf('=');
  const bad = (rule: string): never => {
    throw new ValidationError([{ field: '--custom-field', rule: `${rule} (got ${JSON.stringify(entry)})` }]);
  };
  if (eq <= 0) return bad('must be KEY=VALUE');
  const key = entry.slice(0, eq).trim();
  const raw = entry.slice(eq + 1);
  if (!CUSTOM_FIELD_KEY.test(key)) return bad(`${key}: must be a 40-character custom field key (hex hash)`);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Plain text value.
  }
  if (Array.isArray(value) && value.length === 0) {
    throw new ValidationError([{ field: '--custom-field', rule: `${key}: an empty array cannot clear a multi-option field; use ${key}=null` }]);
  }
  return [key, value];
}

/** Merges the --custom-field entries into the body's custom_fields (they win over --data and --custom-fields). */
export const withCustomFields = extension({
  flags: {
    customField: flag.list({
      value: 'key=value',
      description: 'set one custom field (repeatable): KEY is the 40-character field hash, VALUE is JSON or text; KEY=null clears it',
    }),
  },
  adjust(_ctx, raw, flags) {
    const entries = flags.customField;
    if (!entries.length) return raw;
    const body = raw.body && typeof raw.body === 'object' ? (raw.body as Record<string, unknown>) : {};
    const existing = body.custom_fields && typeof body.custom_fields === 'object' ? (body.custom_fields as Record<string, unknown>) : {};
    return { ...raw, body: { ...body, custom_fields: { ...existing, ...Object.fromEntries(entries.map(parseCustomField)) } } };
  },
});
