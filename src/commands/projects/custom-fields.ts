// `--custom-field KEY=VALUE` (repeatable) for project create/update. The values are folded into
// the request body before the generic builder validates it, so --data, --custom-fields JSON and
// these flags end up in one custom_fields object (later sources win per key).
import { CUSTOM_FIELD_KEY } from '../../api/operations/projects.js';
import type { Context } from '../../core/context.js';
import type { OptionSpec } from '../../core/command.js';
import { ValidationError } from '../../core/errors.js';
import { readAll } from '../../core/stdin.js';
import { readMaybeFile } from '../coerce.js';

export const customFieldOption: OptionSpec = {
  flags: '--custom-field <key=value>',
  description: 'set one custom field (repeatable): KEY is the 40-character field hash, VALUE is JSON or text; KEY=null clears it',
  repeatable: true,
};

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

/**
 * Returns opts with the --custom-field entries merged into --data (so one body reaches the
 * validator). Without --custom-field the opts are returned unchanged.
 */
export async function foldCustomFields(ctx: Context, opts: Record<string, unknown>): Promise<Record<string, unknown>> {
  const entries = (opts.customField as string[] | undefined) ?? [];
  if (!entries.length) return opts;
  const fromFlags = Object.fromEntries(entries.map(parseCustomField));
  let body: Record<string, unknown> = {};
  if (opts.data !== undefined) {
    const text = opts.data === '-' ? await readAll(ctx.io.stdin) : readMaybeFile(String(opts.data), '--data');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ValidationError([{ field: '--data', rule: 'must be JSON' }]);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ValidationError([{ field: '--data', rule: 'must be a JSON object' }]);
    body = parsed as Record<string, unknown>;
  }
  let fromJsonFlag: Record<string, unknown> = {};
  if (opts.customFields !== undefined) {
    try {
      fromJsonFlag = JSON.parse(readMaybeFile(String(opts.customFields), '--custom-fields')) as Record<string, unknown>;
    } catch {
      throw new ValidationError([{ field: '--custom-fields', rule: 'must be a JSON object (or @file with one)' }]);
    }
  }
  const existing = body.custom_fields && typeof body.custom_fields === 'object' ? (body.custom_fields as Record<string, unknown>) : {};
  body.custom_fields = { ...existing, ...fromJsonFlag, ...fromFlags };
  const { customField: _entries, customFields: _json, ...rest } = opts;
  return { ...rest, data: JSON.stringify(body) };
}
