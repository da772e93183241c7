// Linked records by name, in one place (issue 30.6). Every door that shows or takes a link by name —
// tables, export name columns and NDJSON name members, import columns, `--where` conditions, custom
// values of type user/org/people, pulled filters, restore — goes through this module, so a name means
// the same thing, finds the same record and is refused with the same words everywhere.
//
// Vocabulary (kinds.ts): LinkKind = organization | person | deal | lead | product | project | user |
// stage | pipeline | board | phase | activity-type | currency | <item>-label (deal, person, organization,
// lead, project). Custom fields by name and options by label come from the field catalog
// (src/names/catalog.ts) through the same resolver (`catalog`, `optionOf`).
//
// One syntax per kind, read and written alike (NameStyle 'key'): a user by e-mail (a name is read
// too), a stage as "Pipeline/Stage", a phase as "Board/Phase" (a bare name is read when it is unique,
// and an import row's separate pipeline column is still read: `idOf(kind, name, { within })`).
//
// API (load it lazily; nothing reads until asked):
// - linkNames(reader, owner?) → LinkNames: the resolver of one command or run (shared per reader.memo,
//   else per owner), so each list is read at most once, whole lists paged, big lists by `ids=`.
// - LinkNames.namesOf(kind, ids, { style: 'shown' | 'key', whole?, parent?, bestEffort? }) → Map<id, name>
//   LinkNames.nameOf(kind, id, opts) → name | undefined
//   LinkNames.carried(kind, ids) → { names: Map<id, key>, not: Map<id, why> }: the keys that find each
//     record again in another account (unique), and why the others cannot be carried
//   LinkNames.idOf(kind, text, { within? }) → { id, entry } | { rule }: a name (or key, alias, or the id
//     itself) → what records carry to point at it (an id; an activity type's key_string; a currency's code)
//   LinkNames.remember(kind, [{ id, label }]): names a record carried itself (labels with include_labels)
//   LinkNames.catalog(itemType) → FieldCatalog; optionOf(itemType, field, label) → { id } | { rule };
//     optionLabels(itemType, field) → Map<option id, label>
// - noMatchRule / ambiguousRule / optionRule (wording.ts): the one wording of a name that finds nothing or several.
// - nameColumnsOf(itemType), withNameColumns(columns, itemType), namedColumns(itemType, bodyKeys)
//   (columns.ts): the name column beside each link id (org_id → org_name, owner_id → owner_email,
//   stage_id → stage_name, label_ids → label_names, ...), export's and import's alike.
// - RecordNames (record-names.ts): an export's records with those names and custom values by field
//   name (`fields`), and the one warning for links it could not carry; fieldsOf(catalog, record, linked).
// - withLinkNames(names, records, links) (table-names.ts): tables' linked columns by name.
export { LABEL_KINDS, LINK_KINDS, isLabelKind, labelKindOf, type LabelKind, type LinkEntry, type LinkKind } from './kinds.js';
export { LinkNames, linkIds, linkNames, normName, type NameStyle, type NamesOptions, type Resolved } from './resolver.js';
export { ambiguousRule, noMatchRule, optionRule } from './wording.js';
export { nameColumnsOf, namedColumns, withNameColumns, type NameColumn, type NamedColumn, type NameTarget } from './columns.js';
export { fieldsOf, namedCustomCells, RecordNames } from './record-names.js';
export { withLinkNames, type Link } from './table-names.js';
