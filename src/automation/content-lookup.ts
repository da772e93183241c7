import { readAll, readerOf } from '../entry/prepare.js';
import type { Operation } from '../api/operation.js';
import type { HttpPort } from '../core/http-port.js';

/**
 * How an import finds the record a row created when the create's answer was lost, for kinds that
 * have no marker field of their own (leads have origin_id): by its content. One descriptor per kind:
 * the list operation comes from the operation tables (the kind's export list, read with
 * updated_since so only records written since the send are read), the identifying fields are
 * declared here. A record matches a row when it was added after the send (minus a clock allowance),
 * every identifying field the row gives has the same value in the record, and no other row of the
 * import already owns it. Rows with the same identifying content are interchangeable: whichever
 * record one of them finds, the account ends with one record per row.
 */
export interface ContentDescriptor {
  /** Body keys that identify a row's record (compared only when the row gives them). */
  fields: string[];
  /** Keys whose text is compared without markup and spacing (the service sanitizes note HTML). */
  text?: string[];
}

export const CONTENT_DESCRIPTORS: Record<string, ContentDescriptor> = {
  organizations: { fields: ['name', 'owner_id'] },
  persons: { fields: ['name', 'org_id', 'owner_id'] },
  deals: { fields: ['title', 'org_id', 'person_id', 'stage_id', 'pipeline_id'] },
  activities: { fields: ['subject', 'type', 'due_date', 'due_time', 'deal_id', 'lead_id', 'person_id', 'org_id'] },
  products: { fields: ['name', 'code'] },
  notes: { fields: ['content', 'deal_id', 'lead_id', 'person_id', 'org_id', 'project_id'], text: ['content'] },
};

/** A record's value as compared: ids given as objects ({value}, {id}) by some answers, text trimmed. */
function comparable(v: unknown, text: boolean): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    return comparable(o.value ?? o.id, text);
  }
  const s = String(v);
  return text ? s.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ').trim() : s.trim();
}

export function matches(d: ContentDescriptor, body: Record<string, unknown>, rec: Record<string, unknown>): boolean {
  for (const f of d.fields) {
    const text = d.text?.includes(f) ?? false;
    const want = comparable(body[f], text);
    if (want === undefined) continue;
    if (comparable(rec[f], text) !== want) return false;
  }
  return true;
}

/** RFC 3339 to the second, floored (the service's clock has 1 s resolution). */
const rfc3339 = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Records of `list` written since `cutoff` (service clock, ms) that match the rows, by line. `taken`
 * holds the ids other rows own; a match is added to it at once so that concurrent look-ups of rows
 * with the same content never settle on one record.
 */
export async function findByContent(
  http: HttpPort, list: Operation, d: ContentDescriptor, rows: Array<{ line: number; body: Record<string, unknown> }>, cutoff: number, taken: Set<string>,
): Promise<Map<number, Record<string, unknown>>> {
  const recent: Array<Record<string, unknown>> = [];
  const at = (v: unknown) => Date.parse(String(v ?? '').replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(String(v ?? '')) ? '' : 'Z'));
  for await (const rec of readAll(readerOf(http), list, { query: { updated_since: rfc3339(cutoff) } })) recent.push(rec as Record<string, unknown>);
  /**
   * Created since the send, not only updated: its add_time is after the cutoff, or is the one the row
   * sent (an undo re-creates a record with the add_time it had: a create cut off by a kill must be
   * found all the same, or it is sent twice).
   */
  const created = (r: Record<string, unknown>, body: Record<string, unknown>) => {
    const added = at(r.add_time);
    return Number.isNaN(added) || added >= Math.floor(cutoff / 1000) * 1000 || (body.add_time !== undefined && added === at(body.add_time));
  };
  // Oldest first: rows sent earlier tend to have the lower ids.
  recent.sort((a, b) => Number(a.id) - Number(b.id));
  const found = new Map<number, Record<string, unknown>>();
  for (const row of rows) {
    const rec = recent.find((r) => !taken.has(String(r.id)) && created(r, row.body) && matches(d, row.body, r));
    if (!rec) continue;
    taken.add(String(rec.id));
    found.set(row.line, rec);
  }
  return found;
}
