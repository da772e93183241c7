import type { Operation } from '../operation.js';
import { stageOps } from '../operations/stages.js';
import { AuthError, ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../entry-types.js';
import type { CheckReader } from '../entry-types.js';

type Issue = { field: string; rule: string };
interface FieldBody {
  ui_visibility?: { add_visible_flag?: boolean };
  important_fields?: { enabled?: boolean; stage_ids?: number[] };
}
export interface StoredField {
  field_code: string;
  field_type: string;
  is_custom_field?: boolean;
  options?: Array<{ id: number | string; label: string }> | null;
  important_fields?: { enabled: boolean; stage_ids: number[] };
}

/** The get operation of a field table (every field table has one, built by api/operations/field-api.ts). */
export type FieldGet = Operation & { params: NonNullable<Operation['params']> };

/** One field as the service holds it (with the members the checks need). */
export async function readField(ctx: CheckReader, get: Operation, fieldCode: string, include: string[] = []): Promise<StoredField> {
  const query = include.length ? { include_fields: include } : {};
  return (await ctx.read(get, { params: { field_code: fieldCode }, query } as never)) as StoredField;
}

/** Ids of the active deal stages; undefined when the token may not read stages (the service then decides). */
async function activeStageIds(ctx: CheckReader): Promise<Set<number> | undefined> {
  try {
    const ids = new Set<number>();
    for await (const s of ctx.readAll(stageOps.list, {})) {
      const stage = s as { id: number; is_deleted?: boolean };
      if (stage.is_deleted !== true) ids.add(stage.id);
    }
    return ids;
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    ctx.debug(`stage check skipped: ${err.message}`);
    return undefined;
  }
}

/**
 * The option operations apply changes all or nothing; checking before sending that the field takes
 * options and that every named option exists gives the same answer without a failed write.
 */
export function optionPreflight(get: Operation, flag: string, needIds: boolean) {
  return async (ctx: CheckReader, input: ValidInput): Promise<void> => {
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

/**
 * Rules that need the account's data, checked with reads before a create or update is sent:
 * important stage ids must be active deal stages and stay empty while the field is not important
 * (on update an absent --important keeps the stored value), and the system field `name` is always
 * shown in the add dialog.
 */
export function fieldPreflight(get: Operation) {
  return async (ctx: CheckReader, input: ValidInput): Promise<void> => {
  const body = (input.body ?? {}) as FieldBody;
  const fieldCode = input.params.field_code as string | undefined;
  const issues: Issue[] = [];
  if (fieldCode === 'name' && body.ui_visibility?.add_visible_flag === false) {
    issues.push({ field: '--add-visible', rule: 'cannot be false for the system field name' });
  }
  const stageIds = body.important_fields?.stage_ids ?? [];
  if (stageIds.length) {
    let enabled = body.important_fields?.enabled;
    if (enabled === undefined && fieldCode) enabled = (await readField(ctx, get, fieldCode, ['important_fields'])).important_fields?.enabled;
    if (enabled !== true) {
      issues.push({ field: '--important-stage-ids', rule: 'must be empty unless the field is important (--important true)' });
    } else {
      const active = await activeStageIds(ctx);
      const unknown = active ? stageIds.filter((s) => !active.has(s)) : [];
      if (unknown.length) issues.push({ field: '--important-stage-ids', rule: `not an active deal stage: ${unknown.join(', ')} (see crmctl stages list)` });
    }
  }
  if (issues.length) throw new ValidationError(issues);
  };
}
