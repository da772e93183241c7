import { readAll, readerOf } from '../entry/prepare.js';
import type { HttpPort } from '../core/http-port.js';
import { LINK_NAME_COLUMNS, listOf, type RefKind } from './name-refs.js';

/**
 * CSV exports of kinds that import carry the linked records' names beside their ids (org_id then
 * org_name, owner_id then owner_email, stage_id then stage_name...): `import` reads the names, so a
 * file exported from one account imports into another whose ids differ. Each linked list is read
 * once per export, and only when a page has such an id.
 */
export class LinkNamer {
  private readonly labels = new Map<RefKind, Map<string, string>>();

  constructor(private readonly http: HttpPort) {}

  /** Columns with each link's name column placed right after its id column (once). */
  static withNames(columns: string[]): string[] {
    const out: string[] = [];
    for (const c of columns) {
      if (out.includes(c)) continue;
      out.push(c);
      const link = LINK_NAME_COLUMNS.find((l) => l.id === c);
      if (link && !columns.includes(link.name)) out.push(link.name);
    }
    return out;
  }

  /** Sets each named link column the columns ask for on the records (copies; the service's records stay as they are). */
  async annotate(records: unknown[], columns: string[]): Promise<unknown[]> {
    const links = LINK_NAME_COLUMNS.filter((l) => columns.includes(l.name) && columns.includes(l.id));
    if (!links.length) return records;
    const out: unknown[] = [];
    for (const rec of records) {
      if (!rec || typeof rec !== 'object') {
        out.push(rec);
        continue;
      }
      const r: Record<string, unknown> = { ...(rec as Record<string, unknown>) };
      for (const l of links) {
        const id = idOf(r[l.id]);
        if (id === undefined || r[l.name] !== undefined) continue;
        r[l.name] = (await this.labelsOf(l.kind)).get(id) ?? null;
      }
      out.push(r);
    }
    return out;
  }

  private async labelsOf(kind: RefKind): Promise<Map<string, string>> {
    let m = this.labels.get(kind);
    if (m) return m;
    m = new Map();
    for await (const rec of readAll(readerOf(this.http), await listOf(kind))) {
      const r = rec as { id?: unknown; name?: unknown; email?: unknown };
      const label = kind === 'user' ? (r.email ?? r.name) : r.name;
      if (r.id !== undefined && typeof label === 'string') m.set(String(r.id), label);
    }
    this.labels.set(kind, m);
    return m;
  }
}

/** A link as records give it: the id, or an object holding it ({value}, {id}). */
function idOf(v: unknown): string | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  if (typeof v === 'object') return idOf((v as Record<string, unknown>).value ?? (v as Record<string, unknown>).id);
  return String(v);
}
