import type { Reader } from '../api/entry-types.js';
import type { Operation } from '../api/operation.js';
import { checkReader } from '../entry/prepare.js';

/** The names of the item type's custom fields, as `names` results key them. */
export async function customFieldNames(reader: Reader, op: Operation): Promise<string[]> {
  const itemType = op.cli.customFields;
  if (!itemType) return [];
  const { fieldCatalog } = await import('../names/index.js');
  return (await fieldCatalog(checkReader(reader), itemType, reader)).custom.map((f) => f.name);
}

/**
 * Custom fields by name (issue 22 point 3), through src/names like every other door. Arguments need
 * nothing here: the entry (prepare) translates names among the keys of `custom_fields`
 * (`{ "Segment": "Enterprise" }`) for every caller, MCP included. Results are shown by name when a
 * call asks (`names: true` of a read tool, or of call_operation), as `--names` shows them on the command line.
 */
export async function namedResult(reader: Reader, op: Operation, records: unknown[]): Promise<unknown[]> {
  const itemType = op.cli.customFields;
  if (!itemType) return records;
  const { fieldCatalog, namedRecord } = await import('../names/index.js');
  const catalog = await fieldCatalog(checkReader(reader), itemType, reader);
  return records.map((r) => namedRecord(catalog, r));
}
