import type { CheckReader, Reader } from '../api/entry-types.js';
import type { Operation } from '../api/operation.js';
import { ValidationError } from '../core/errors.js';
import type { RawInput } from '../input/operation-input.js';
import { type FieldCatalog, fieldCatalog } from './catalog.js';
import { customValuesByKey, type Issue, placementOf } from './write.js';
import { CUSTOM_FIELD_LINKS } from './links/kinds.js';

/** A custom field's hash key, or one of its companion members (`<key>_currency`, `<key>_until`). */
export const HASH = /^[0-9a-f]{40}(_currency|_until)?$/;

/**
 * A linked-record field's value given by name ("Account manager=Reggie Regular" or an e-mail,
 * "Partner=Globex Industries") → the record's id, in place in `named`. Names resolve through the one
 * resolver of src/names/links (one per command or import run), so each list is read at most once, and
 * only when such a value is given; a name that finds no record, or several, is an issue of the input.
 */
async function linksByName(reader: CheckReader, cat: FieldCatalog, named: Body, label: (name: string) => string, owner: Reader): Promise<Issue[]> {
  const wanted = Object.entries(named).flatMap(([k, v]) => {
    const f = cat.customField(k);
    const kind = f ? CUSTOM_FIELD_LINKS[f.type] : undefined;
    return kind && typeof v === 'string' && !/^\s*\d+\s*$/.test(v) ? [{ k, v, f: f!, kind }] : [];
  });
  if (!wanted.length) return [];
  const { linkNames } = await import('./links/resolver.js');
  const names = linkNames(reader, owner);
  const issues: Issue[] = [];
  for (const { k, v, f, kind } of wanted) {
    const found = await names.idOf(kind, v);
    if ('id' in found) named[k] = found.id;
    else {
      issues.push({ field: label(k), rule: `${f.name} (${f.type}) ${found.rule}` });
      delete named[k];
    }
  }
  return issues;
}

type Body = Record<string, unknown>;

const isObject = (x: unknown): x is Body => typeof x === 'object' && x !== null && !Array.isArray(x);

/** True when an input gives custom values by name (so the entry must translate it, and read the field names). */
export function hasNamedFields(op: Operation, raw: Partial<RawInput>): boolean {
  if (!op.cli.customFields || !isObject(raw.body)) return false;
  const cf = raw.body.custom_fields;
  return raw.body.fields !== undefined || (isObject(cf) && Object.keys(cf).some((k) => !HASH.test(k)));
}

/**
 * The one translation of written custom values, run by the entry (src/entry/prepare.ts) before its checks so
 * every door takes the same names: `fields: { "Budget": "5000 EUR" }` in a body (a command's repeatable
 * `--field NAME=VALUE`, a fixture's `fields:`, an MCP call's `fields` argument), and names among the
 * keys of `custom_fields`. Values are checked against each field's type; the hash keys go where the
 * item type's writes carry them (inside `custom_fields`, or top-level for v1 leads). Refusals name the
 * input as its door does (`--field Budget`, `fields.Budget`), exit 2, nothing sent.
 * `fieldLabel` names a `fields` entry where the door names it otherwise (an import: the column).
 * `owner` is the reader the caches belong to (a CLI Context; see catalog.ts). Returns the input to check and the top-level keys the entry must let through (v1 leads).
 */
export async function translateNamedFields(reader: CheckReader, op: Operation, raw: RawInput, naming: 'flags' | 'keys' = 'flags', container?: string, owner: Reader = reader, fieldLabel?: (name: string) => string): Promise<{ raw: RawInput; topKeys: Set<string> }> {
  const itemType = op.cli.customFields!;
  const body = { ...(raw.body as Body) };
  const named: Body = {};
  const labels = new Map<string, string>();
  const prefix = naming === 'keys' && container ? `${container}.` : '';
  if (body.fields !== undefined) {
    if (!isObject(body.fields)) throw new ValidationError([{ field: naming === 'flags' ? '--field' : `${prefix}fields`, rule: 'must be an object of custom field names and values' }]);
    for (const [k, v] of Object.entries(body.fields)) {
      named[k] = v;
      labels.set(k, fieldLabel ? fieldLabel(k) : naming === 'flags' ? `--field ${k}` : `${prefix}fields.${k}`);
    }
    delete body.fields;
  }
  const cf = isObject(body.custom_fields) ? { ...body.custom_fields } : undefined;
  if (cf) {
    for (const k of Object.keys(cf)) {
      if (HASH.test(k)) continue;
      named[k] = cf[k];
      labels.set(k, naming === 'flags' ? `--custom-fields ${k}` : `${prefix}custom_fields.${k}`);
      delete cf[k];
    }
  }
  const cat = await fieldCatalog(reader, itemType, owner);
  const label = (n: string) => labels.get(n) ?? n;
  const linkIssues = await linksByName(reader, cat, named, label, owner);
  const { values, issues } = customValuesByKey(cat, named, label);
  if (linkIssues.length || issues.length) throw new ValidationError([...linkIssues, ...issues]);
  const topKeys = new Set<string>();
  if (placementOf(itemType) === 'top') {
    if (cf) body.custom_fields = cf;
    for (const [k, v] of Object.entries(values)) {
      body[k] = v;
      topKeys.add(k);
    }
  } else if (cf || Object.keys(values).length) {
    body.custom_fields = { ...(cf ?? {}), ...values };
  }
  return { raw: { ...raw, body }, topKeys };
}
