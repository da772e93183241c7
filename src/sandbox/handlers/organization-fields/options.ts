// Bulk option operations of enum/set organization fields. Each is atomic: the whole array is checked
// (non-empty, every id exists on the field) before anything changes, and only the touched options return.
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import type { Body } from '../../http/validate.js';
import type { HandlerContext, SandboxRequest } from '../../types.js';
import { labelList, OPTION_TYPES } from './body.js';
import { loadField } from './fields.js';
import { nextOptionId, orgFields, type FieldOption, type OrgField } from './records.js';

function optionField(req: SandboxRequest, ctx: HandlerContext): OrgField {
  const f = loadField(ctx, req.params.field_code!);
  if (!OPTION_TYPES.has(f.field_type)) throw invalid('field_code', `${f.field_code} is a ${f.field_type} field; only enum and set fields have options`);
  return f;
}

const brief = (o: FieldOption) => ({ id: o.id, label: o.label });

/** The array body of update/delete: items with an existing option id (and a label when `withLabel`). */
function idItems(body: unknown, f: OrgField, withLabel: boolean): Array<{ id: number; label?: string }> {
  if (!Array.isArray(body)) throw invalid('body', withLabel ? 'must be an array of {id, label}' : 'must be an array of {id}');
  if (body.length === 0) throw invalid('body', 'at least one option is needed');
  const known = new Set((f.options ?? []).map((o) => o.id));
  const items = body.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid(`[${i}]`, 'must be an object');
    const it = item as Body;
    for (const k of Object.keys(it)) if (k !== 'id' && !(withLabel && k === 'label')) throw invalid(`[${i}].${k}`, 'is not a known member');
    if (!Number.isInteger(it.id)) throw invalid(`[${i}].id`, 'is required (an integer option id)');
    if (withLabel && (typeof it.label !== 'string' || !it.label.trim())) throw invalid(`[${i}].label`, 'is required (a non-empty string)');
    return { id: it.id as number, label: withLabel ? (it.label as string).trim() : undefined };
  });
  const missing = items.filter((it) => !known.has(it.id)).map((it) => it.id);
  if (missing.length) throw invalid('id', `option ${missing.join(', ')} does not exist on field ${f.field_code}; nothing was changed`);
  return items;
}

export function addOptions(req: SandboxRequest, ctx: HandlerContext) {
  const f = optionField(req, ctx);
  const labels = labelList(req.body, 'body');
  const now = ctx.now().toISOString();
  let next = nextOptionId(ctx.state);
  const added: FieldOption[] = labels.map((label) => ({ id: next++, label, color: null, add_time: now, update_time: now }));
  orgFields(ctx.state).update(f.id, { options: [...(f.options ?? []), ...added] }, { userId: req.userId });
  return ok(added.map(brief));
}

export function updateOptions(req: SandboxRequest, ctx: HandlerContext) {
  const f = optionField(req, ctx);
  const items = idItems(req.body, f, true);
  const now = ctx.now().toISOString();
  const byId = new Map(items.map((it) => [it.id, it.label!]));
  const options = (f.options ?? []).map((o) => (byId.has(o.id) ? { ...o, label: byId.get(o.id)!, update_time: now } : o));
  orgFields(ctx.state).update(f.id, { options }, { userId: req.userId });
  return ok(options.filter((o) => byId.has(o.id)).map(brief));
}

export function deleteOptions(req: SandboxRequest, ctx: HandlerContext) {
  const f = optionField(req, ctx);
  const ids = new Set(idItems(req.body, f, false).map((it) => it.id));
  const all = f.options ?? [];
  orgFields(ctx.state).update(f.id, { options: all.filter((o) => !ids.has(o.id)) }, { userId: req.userId });
  return ok(all.filter((o) => ids.has(o.id)).map(brief));
}
