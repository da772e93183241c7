// Names, not hashes and ids: the one translation between the field names people see ("Lead score",
// "Segment: Enterprise") and the keys and ids the service takes (40-hex hashes, option ids). Commands,
// import/export, fixtures and MCP all go through this module, so a name means the same at every door.
//
// API (load it lazily: nothing here runs unless a command shows or takes names):
// - fieldCatalog(reader, itemType) → FieldCatalog: the item type's fields (key, name, type, custom,
//   options), from the per-profile cache (cache.ts, 5 minutes) or one read of the type's field list.
//   catalog.keyOf(name), nameOf(key), labelOf(field, optionId), optionIdOf(field, label), customField(name).
// - forgetFields(reader, itemType?): drop cached metadata (after a field command, or a refusal naming an unknown field).
// - customValuesByKey(catalog, { Name: value }, label) → { values keyed by hash, issues }: checked by type.
// - namedRecord(catalog, record): the record with custom values under names, options as labels (--names).
// - withCustomCells(catalog, record, fields): table cells ("5000 EUR", labels) added under field names.
export { FieldCatalog, fieldCatalog, forgetFields, ITEM_TYPES, schemaOf, type FieldInfo, type FieldOption, type ItemType } from './catalog.js';
export { DEFAULT_TTL_SEC } from './cache.js';
export { cellValue, namedRecord, namedValue, rawCustomValues, withCustomCells } from './read.js';
export { customValuesByKey, parseAssignments, placementOf, valueFor, type Issue } from './write.js';
