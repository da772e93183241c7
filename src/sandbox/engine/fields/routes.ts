// The field API of one item type, both versions: v2 list/get/create/update/delete and the bulk option
// operations, v1 list/get/create/update/delete and bulk delete. One implementation for every item type;
// the differences are data (entities.ts).
import { randomBytes } from 'node:crypto';
import { ok } from '../../http/envelope.js';
import { ApiError, invalid, notFound } from '../../http/errors.js';
import { cursorPage, offsetPage } from '../../http/paginate.js';
import { has, objectBody, optBool, optEnum, rejectUnknown, type Body } from '../../http/validate.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { applyImportant, applyRequired, applyUiVisibility, fieldName, labelList, optionLabels } from './body.js';
import { defaultImportant, defaultRequired, defaultUi, type FieldEntityConfig } from './entities.js';
import { CREATABLE_TYPES, fieldStore, nextOptionId, OPTION_TYPES, subfieldsFor, type FieldOption, type FieldRecord } from './store.js';
import { v1Field as v1FieldOf } from './v1.js';

const OPTIONAL_MEMBERS = ['ui_visibility', 'important_fields', 'required_fields'] as const;

function optionalMembers(cfg: FieldEntityConfig): string[] {
  return OPTIONAL_MEMBERS.filter((m) => m === 'ui_visibility' || (m === 'important_fields' ? cfg.important : cfg.required !== 'none'));
}

/** v2 record: internal members dropped, optional members only when asked (project fields always show them). */
function present(cfg: FieldEntityConfig, f: FieldRecord, include: ReadonlySet<string> | 'all'): Record<string, unknown> {
  const { id: _id, order_nr: _o, add_time: _a, update_time: _u, created_by_user_id: _c, last_updated_by_user_id: _l, ...out } = f;
  if (!cfg.description) delete out.description;
  for (const m of OPTIONAL_MEMBERS) if (out[m] === undefined || (include !== 'all' && !include.has(m))) delete out[m];
  return out;
}

function includes(cfg: FieldEntityConfig, req: SandboxRequest): Set<string> | 'all' {
  if (cfg.entity === 'project') return 'all';
  const allowed = optionalMembers(cfg);
  const asked = req.query.list('include_fields') ?? [];
  for (const v of asked) if (!allowed.includes(v)) throw invalid('include_fields', `must be one of ${allowed.join(', ')}`);
  return new Set(asked);
}

function missing(cfg: FieldEntityConfig): ApiError {
  return cfg.missingStatus === 410 ? new ApiError(410, 'The field is not found', 'Object was not found.') : notFound('Field not found');
}

function byCode(cfg: FieldEntityConfig, ctx: HandlerContext, code: string): FieldRecord {
  const f = fieldStore(ctx.state, cfg.entity).find((x) => x.field_code === code);
  if (!f) throw missing(cfg);
  return f;
}

function byId(cfg: FieldEntityConfig, ctx: HandlerContext, raw: string): FieldRecord {
  if (!/^\d+$/.test(raw)) throw invalid('id', 'must be a positive integer');
  const f = fieldStore(ctx.state, cfg.entity).get(Number(raw));
  if (!f) throw missing(cfg);
  return f;
}

function refuseSystem(f: FieldRecord, where: string): void {
  if (!f.is_custom_field) throw invalid(where, `${f.field_code} is a system field and cannot be deleted`);
}

const ordered = (cfg: FieldEntityConfig, ctx: HandlerContext) =>
  [...fieldStore(ctx.state, cfg.entity).all()].sort((a, b) => a.order_nr - b.order_nr || a.id - b.id);

function newOptions(ctx: HandlerContext, labels: string[]): FieldOption[] {
  const now = ctx.now().toISOString();
  let id = nextOptionId(ctx.state);
  return labels.map((label) => ({ id: id++, label, color: null, add_time: now, update_time: now }));
}

/** Shared by both versions: a new custom field with the defaults of its item type. */
function insertField(cfg: FieldEntityConfig, req: SandboxRequest, ctx: HandlerContext, name: string, type: string, labels: string[] | null, b: Body): FieldRecord {
  const { state } = ctx;
  const col = fieldStore(state, cfg.entity);
  const field_code = randomBytes(20).toString('hex');
  const identity = { field_code, is_custom_field: true };
  const ui = applyUiVisibility(state, cfg, b, defaultUi(cfg), identity);
  const now = ctx.now().toISOString();
  const order = Math.max(0, ...col.all().map((f) => f.order_nr)) + 1;
  const rec: Omit<FieldRecord, 'id'> = {
    field_code, field_name: name, field_type: type, options: labels ? newOptions(ctx, labels) : null, subfields: subfieldsFor(type, name),
    is_custom_field: true, is_optional_response_field: false, ui_visibility: ui, order_nr: order, add_time: now, update_time: now,
    created_by_user_id: req.userId, last_updated_by_user_id: req.userId,
  };
  if (cfg.description) rec.description = has(b, 'description') && b.description !== null ? String(b.description) : null;
  const imp = applyImportant(state, cfg, b, defaultImportant(cfg), ui);
  const reqd = applyRequired(state, cfg, b, defaultRequired(cfg), ui);
  if (imp) rec.important_fields = imp;
  if (reqd) rec.required_fields = reqd;
  return col.insert(rec, { userId: req.userId });
}

export function fieldRoutes(cfg: FieldEntityConfig): RouteDef[] {
  const col = (ctx: HandlerContext) => fieldStore(ctx.state, cfg.entity);
  const createMembers = ['field_name', 'field_type', 'options', 'ui_visibility', ...optionalMembers(cfg).filter((m) => m !== 'ui_visibility'), ...(cfg.description ? ['description'] : [])];
  const updateMembers = createMembers.filter((m) => m !== 'field_type' && m !== 'options');

  const v2: RouteDef[] = [
    {
      method: 'GET', path: cfg.v2, cost: 10, scopes: cfg.scopes.read,
      handler: (req, ctx) => {
        const inc = includes(cfg, req);
        const page = cursorPage(ordered(cfg, ctx), req.query, { maxLimit: 500 });
        return ok(page.data.map((f) => present(cfg, f, inc)), page.additional_data);
      },
    },
    {
      method: 'GET', path: `${cfg.v2}/{field_code}`, cost: 1, scopes: cfg.scopes.read,
      handler: (req, ctx) => ok(present(cfg, byCode(cfg, ctx, req.params.field_code!), includes(cfg, req))),
    },
    {
      method: 'POST', path: cfg.v2, cost: 5, scopes: cfg.scopes.create,
      handler: (req, ctx) => {
        const b = objectBody(req.body);
        if (has(b, 'field_code')) throw invalid('field_code', 'is generated by the service and cannot be set');
        rejectUnknown(b, createMembers);
        const name = fieldName(b, true)!;
        if (!has(b, 'field_type') || b.field_type === null) throw invalid('field_type', 'is required');
        const type = optEnum(b, 'field_type', CREATABLE_TYPES)!;
        return ok(present(cfg, insertField(cfg, req, ctx, name, type, optionLabels(b, type), b), 'all'));
      },
    },
    {
      method: 'PATCH', path: `${cfg.v2}/{field_code}`, cost: 5, scopes: cfg.scopes.update,
      handler: (req, ctx) => {
        const { state } = ctx;
        const f = byCode(cfg, ctx, req.params.field_code!);
        const b = objectBody(req.body);
        for (const k of ['field_code', 'field_type']) if (has(b, k)) throw invalid(k, 'cannot change (immutable)');
        if (has(b, 'options')) throw invalid('options', 'are changed through the options operations of the field');
        rejectUnknown(b, updateMembers);
        if (!updateMembers.some((k) => has(b, k))) throw invalid('body', `at least one of ${updateMembers.join(', ')} is needed`);
        // Everything is checked before anything changes.
        const ui = applyUiVisibility(state, cfg, b, f.ui_visibility, f);
        const patch: Partial<FieldRecord> = {
          ui_visibility: ui,
          important_fields: applyImportant(state, cfg, b, f.important_fields, ui),
          required_fields: applyRequired(state, cfg, b, f.required_fields, ui),
          update_time: ctx.now().toISOString(), last_updated_by_user_id: req.userId,
        };
        const name = fieldName(b, false);
        if (name !== undefined) {
          patch.field_name = name;
          if (f.subfields) patch.subfields = subfieldsFor(f.field_type, name) ?? f.subfields;
        }
        if (cfg.description && has(b, 'description')) patch.description = b.description === null ? null : String(b.description);
        col(ctx).update(f.id, patch, { userId: req.userId });
        return ok(present(cfg, col(ctx).get(f.id)!, 'all'));
      },
    },
    {
      method: 'DELETE', path: `${cfg.v2}/{field_code}`, cost: 3, scopes: cfg.scopes.create,
      handler: (req, ctx) => {
        const f = byCode(cfg, ctx, req.params.field_code!);
        refuseSystem(f, 'field_code');
        col(ctx).markDeleted(f.id, {}, { userId: req.userId });
        return ok(present(cfg, f, new Set()));
      },
    },
    ...optionRoutes(cfg),
  ];
  return cfg.v1 ? [...v2, ...v1Routes(cfg, insertField)] : v2;
}

// ---- bulk option operations ---------------------------------------------------------------------

const brief = (o: FieldOption) => ({ id: o.id, label: o.label });

function optionRoutes(cfg: FieldEntityConfig): RouteDef[] {
  const path = `${cfg.v2}/{field_code}/options`;
  const optionField = (req: SandboxRequest, ctx: HandlerContext) => {
    const f = byCode(cfg, ctx, req.params.field_code!);
    if (!OPTION_TYPES.has(f.field_type)) throw invalid('field_code', `${f.field_code} is a ${f.field_type} field; only enum and set fields have options`);
    return f;
  };
  /** The array body of update/delete: items with an existing option id (and a label when `withLabel`). */
  const idItems = (body: unknown, f: FieldRecord, withLabel: boolean) => {
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
    const gone = items.filter((it) => !known.has(it.id)).map((it) => it.id);
    if (gone.length) throw invalid('id', `option ${gone.join(', ')} does not exist on field ${f.field_code}; nothing was changed`);
    return items;
  };
  const save = (ctx: HandlerContext, req: SandboxRequest, f: FieldRecord, options: FieldOption[]) =>
    fieldStore(ctx.state, cfg.entity).update(f.id, { options, update_time: ctx.now().toISOString() }, { userId: req.userId });

  return [
    {
      method: 'POST', path, cost: 5, scopes: cfg.scopes.options,
      handler: (req, ctx) => {
        const f = optionField(req, ctx);
        const added = newOptions(ctx, labelList(req.body, 'body'));
        save(ctx, req, f, [...(f.options ?? []), ...added]);
        return ok(added.map(brief));
      },
    },
    {
      method: 'PATCH', path, cost: 5, scopes: cfg.scopes.options,
      handler: (req, ctx) => {
        const f = optionField(req, ctx);
        const byId = new Map(idItems(req.body, f, true).map((it) => [it.id, it.label!]));
        const now = ctx.now().toISOString();
        const options = (f.options ?? []).map((o) => (byId.has(o.id) ? { ...o, label: byId.get(o.id)!, update_time: now } : o));
        save(ctx, req, f, options);
        return ok(options.filter((o) => byId.has(o.id)).map(brief));
      },
    },
    {
      method: 'DELETE', path, cost: 3, scopes: cfg.scopes.options,
      handler: (req, ctx) => {
        const f = optionField(req, ctx);
        const ids = new Set(idItems(req.body, f, false).map((it) => it.id));
        const all = f.options ?? [];
        save(ctx, req, f, all.filter((o) => !ids.has(o.id)));
        return ok(all.filter((o) => ids.has(o.id)).map(brief));
      },
    },
  ];
}

// ---- v1 -----------------------------------------------------------------------------------------

type Insert = typeof insertField;

/** v1 options on update replace the list: items with an id keep (and may rename) that option, items without add one. */
function v1Options(ctx: HandlerContext, f: FieldRecord, raw: unknown): FieldOption[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('options', 'must be a non-empty array of {id?, label}');
  const known = new Map((f.options ?? []).map((o) => [o.id, o]));
  const now = ctx.now().toISOString();
  const fresh: string[] = [];
  const kept: FieldOption[] = [];
  raw.forEach((item, i) => {
    if (typeof item !== 'object' || item === null) throw invalid(`options[${i}]`, 'must be an object {id?, label}');
    const it = item as Body;
    if (typeof it.label !== 'string' || !it.label.trim()) throw invalid(`options[${i}].label`, 'is required (a non-empty string)');
    if (it.id === undefined || it.id === null) { fresh.push(it.label.trim()); return; }
    const o = known.get(Number(it.id));
    if (!o) throw invalid(`options[${i}].id`, `option ${String(it.id)} does not exist on this field`);
    kept.push(o.label === it.label.trim() ? o : { ...o, label: it.label.trim(), update_time: now });
  });
  return [...kept, ...newOptions(ctx, fresh)];
}

function v1Routes(cfg: FieldEntityConfig, insert: Insert): RouteDef[] {
  const base = cfg.v1!;
  const read = cfg.scopes.v1Read!, write = cfg.scopes.v1Write!;
  const col = (ctx: HandlerContext) => fieldStore(ctx.state, cfg.entity);
  // The product v1 type list has no visible_to (the vendor's documents): product visibility is an enum there.
  const v1Field = (f: FieldRecord) => {
    const out = v1FieldOf(f);
    if (cfg.entity === 'product' && out.field_type === 'visible_to') out.field_type = 'enum';
    return out;
  };
  const uiFromFlag = (b: Body): Body => {
    const add = optBool(b, 'add_visible_flag');
    return add === undefined ? {} : { ui_visibility: { add_visible_flag: add } };
  };
  return [
    {
      method: 'GET', path: base, cost: 20, scopes: read,
      handler: (req, ctx) => {
        const page = offsetPage(ordered(cfg, ctx), req.query);
        return ok(page.data.map((f) => v1Field(f)), page.additional_data);
      },
    },
    { method: 'GET', path: `${base}/{id}`, cost: 2, scopes: read, handler: (req, ctx) => ok(v1Field(byId(cfg, ctx, req.params.id!))) },
    {
      method: 'POST', path: base, cost: 10, scopes: write,
      handler: (req, ctx) => {
        const b = objectBody(req.body);
        rejectUnknown(b, ['name', 'field_type', 'options', 'add_visible_flag']);
        const name = fieldName(b, true, 'name')!;
        if (!has(b, 'field_type') || b.field_type === null) throw invalid('field_type', 'is required');
        const type = optEnum(b, 'field_type', CREATABLE_TYPES)!;
        return ok(v1Field(insert(cfg, req, ctx, name, type, optionLabels(b, type), uiFromFlag(b))), null, cfg.v1CreateStatus ?? 200);
      },
    },
    {
      method: 'PUT', path: `${base}/{id}`, cost: 10, scopes: write,
      handler: (req, ctx) => {
        const f = byId(cfg, ctx, req.params.id!);
        const b = objectBody(req.body);
        rejectUnknown(b, ['name', 'options', 'add_visible_flag']);
        const patch: Partial<FieldRecord> = { update_time: ctx.now().toISOString(), last_updated_by_user_id: req.userId };
        const name = fieldName(b, false, 'name');
        if (name !== undefined) { patch.field_name = name; if (f.subfields) patch.subfields = subfieldsFor(f.field_type, name); }
        if (has(b, 'options')) {
          if (!OPTION_TYPES.has(f.field_type)) throw invalid('options', `only enum and set fields have options (field_type is ${f.field_type})`);
          patch.options = v1Options(ctx, f, b.options);
        }
        patch.ui_visibility = applyUiVisibility(ctx.state, cfg, uiFromFlag(b), f.ui_visibility, f);
        col(ctx).update(f.id, patch, { userId: req.userId });
        return ok(v1Field(col(ctx).get(f.id)!));
      },
    },
    {
      method: 'DELETE', path: `${base}/{id}`, cost: 6, scopes: write,
      handler: (req, ctx) => {
        const f = byId(cfg, ctx, req.params.id!);
        refuseSystem(f, 'id');
        col(ctx).markDeleted(f.id, {}, { userId: req.userId });
        return ok({ id: f.id });
      },
    },
    {
      method: 'DELETE', path: base, cost: 10, scopes: write,
      handler: (req, ctx) => {
        // Every id must name a live custom field, else nothing is deleted.
        const raw = req.query.list('ids');
        if (!raw?.length) throw invalid('ids', 'is required (comma-separated field ids)');
        const ids = raw.map((s) => {
          if (!/^\d+$/.test(s)) throw invalid('ids', `must be comma-separated integer ids (got ${JSON.stringify(s)})`);
          return Number(s);
        });
        const gone = ids.filter((id) => !col(ctx).get(id));
        if (gone.length) throw new ApiError(404, `Fields not found: ${gone.join(', ')}`, 'Object was not found.');
        for (const id of ids) refuseSystem(col(ctx).get(id)!, 'ids');
        const unique = [...new Set(ids)];
        for (const id of unique) col(ctx).markDeleted(id, {}, { userId: req.userId });
        return ok({ id: unique });
      },
    },
  ];
}
