import { isLabelKind, KINDS, type LinkKind } from './kinds.js';
import { type LinkNames, linkIds } from './resolver.js';

// Tables show linked records by name (issue 20): the ids a record carries (owner_id, a project's
// deal_ids, a user custom field) turned into what the web app shows, each linked list read as few
// times as it can be (resolver.ts): small lists whole once, big ones by `ids=` the ids on the page.

/**
 * A table column that shows a linked record by name in place of the id member the service sends; a
 * member holding several ids (a project's deal_ids) shows their names joined with ", ".
 */
export interface Link {
  column: string;
  idField: string;
  kind: LinkKind;
}

/** Records held before their names are read: the `ids=` filter of the v2 lists takes at most 100. */
const CHUNK = 100;

/**
 * The records with each link's column set to the linked records' names (read per 100 records), then
 * `shown` applied. An id no record answers to (or a list the token may not read) stays an id.
 */
export async function* withLinkNames(names: LinkNames, records: AsyncIterable<unknown>, links: Link[], shown: (r: unknown) => unknown = (r) => r): AsyncGenerator<unknown> {
  let held: unknown[] = [];
  for await (const r of records) {
    held.push(r);
    if (held.length < CHUNK) continue;
    yield* (await nameChunk(names, held, links)).map(shown);
    held = [];
  }
  if (held.length) yield* (await nameChunk(names, held, links)).map(shown);
}

const member = (r: unknown, key: string): unknown => (r && typeof r === 'object' ? (r as Record<string, unknown>)[key] : undefined);

async function nameChunk(names: LinkNames, records: unknown[], links: Link[]): Promise<unknown[]> {
  const found = new Map<string, Map<string, string>>();
  for (const l of links) {
    // Labels a read carries itself (include_labels) are named without another read.
    if (isLabelKind(l.kind)) for (const r of records) names.remember(l.kind, member(r, 'labels'));
    const parent = KINDS[l.kind].parent;
    // Kinds listed per parent (a board's phases) are read for the parents the records name, once each.
    const groups = new Map<string | undefined, unknown[]>();
    for (const r of records) {
      const p = parent?.listedUnder ? linkIds(member(r, parent.field))[0] : undefined;
      if (parent?.listedUnder && p === undefined) continue;
      groups.set(p, [...(groups.get(p) ?? []), member(r, l.idField)]);
    }
    const map = new Map<string, string>();
    for (const [p, ids] of groups) for (const [id, n] of await names.namesOf(l.kind, ids, { bestEffort: true, parent: p })) map.set(id, n);
    found.set(l.column, map);
  }
  return records.map((r) => {
    if (!r || typeof r !== 'object') return r;
    const out: Record<string, unknown> = { ...(r as Record<string, unknown>) };
    for (const l of links) out[l.column] = linkIds(out[l.idField]).map((id) => found.get(l.column)?.get(id) ?? id).join(', ');
    return out;
  });
}
