import { callOperation, nextPage, recordsOf } from '../api/call.js';
import type { Operation } from '../api/operation.js';
import { prepare, readerOf } from '../entry/prepare.js';
import { activityTypeOps } from '../api/operations/activity-types.js';
import { leadLabelOps } from '../api/operations/lead-labels.js';
import { leadOps } from '../api/operations/leads.js';
import { roleOps } from '../api/operations/roles.js';
import type { HttpPort } from '../core/http-port.js';
import { fieldsOf } from '../input/fields.js';
import { CONTENT_DESCRIPTORS, findByContent, type ContentDescriptor } from './content-lookup.js';
import { findExportResource } from './resources.js';

/**
 * How an import finds out whether a create landed when the answer was lost (connection reset after
 * send, 502/503/504, or a run killed between "sending" and the result). Without such a way a row is
 * never resent: a duplicate is worse than a row reported as "outcome unknown".
 */
export interface Reconciler {
  kind: 'marker' | 'natural-key' | 'content' | 'none';
  /** One line for --dry-run and docs. */
  describe: string;
  /** Adds what makes the row findable (leads: origin_id marker) before it is sent. */
  prepare(body: Record<string, unknown>, marker: string): Record<string, unknown>;
  /** Natural key of a row (name), to refuse duplicates in the file and names that already exist. */
  key?(body: Record<string, unknown>): string | undefined;
  /** Keys that exist in the account now → record id. */
  existing?(http: HttpPort): Promise<Map<string, string | number>>;
  /**
   * Records created for these rows since `since` (ms, our clock), by line. `taken`: ids that rows of
   * this import own already (a look-up by content must not give one record to two rows).
   */
  find(http: HttpPort, rows: Array<{ line: number; body: Record<string, unknown> }>, since: number, taken: Set<string>): Promise<Map<number, Record<string, unknown>>>;
}

/**
 * How far before the first send a record may carry an earlier add_time. With the service's clock
 * known (Date header) only its 1-second resolution and the round trip remain: a few seconds. Without
 * it, a wide allowance for clock differences. A narrow window matters: every ambiguous create of a
 * large import scans the leads back to it (cost 20 a page).
 */
const KNOWN_CLOCK_MARGIN_MS = 3_000;
const UNKNOWN_CLOCK_MARGIN_MS = 5 * 60_000;

export const markerFor = (runId: string, line: number) => `crmctl-import:${runId}:${line}`;

/** The earliest add_time (service clock) a record created by a send at `since` (our clock) may carry. */
const cutoffFor = (http: HttpPort, since: number) =>
  http.clockOffsetMs === undefined ? since - UNKNOWN_CLOCK_MARGIN_MS : since + http.clockOffsetMs - KNOWN_CLOCK_MARGIN_MS;

/**
 * Leads: the interface calls origin_id an optional origin tag, so a row without one gets
 * `crmctl-import:<run>:<line>`. To reconcile, read leads newest first (sort add_time DESC) until
 * they are older than the first send minus a clock allowance, and match origin_id.
 */
const leads: Reconciler = {
  kind: 'marker',
  describe: 'origin_id marker crmctl-import:<run>:<line> (kept when the row has its own), found by listing leads newest first',
  prepare: (body, marker) => (body.origin_id === undefined || body.origin_id === null ? { ...body, origin_id: marker } : body),
  async find(http, rows, since) {
    const wanted = new Map<string, number>();
    for (const r of rows) if (typeof r.body.origin_id === 'string') wanted.set(r.body.origin_id, r.line);
    const found = new Map<number, Record<string, unknown>>();
    const list = leadOps.list;
    // `since` is our clock; add_time is the service's.
    const cutoff = cutoffFor(http, since);
    let start: number | undefined;
    for (;;) {
      const { envelope } = await callOperation(http, list, await prepare(readerOf(http), list, { query: { sort: 'add_time DESC', limit: 100, ...(start !== undefined ? { start } : {}) } }));
      const page = (recordsOf(list, envelope) as Array<Record<string, unknown>> | null) ?? [];
      let older = false;
      for (const lead of page) {
        const line = wanted.get(String(lead.origin_id));
        if (line !== undefined && !found.has(line)) found.set(line, lead);
        if (Date.parse(String(lead.add_time)) < cutoff) older = true;
      }
      const next = nextPage(list, envelope);
      if (found.size === wanted.size || older || next === undefined || page.length === 0) return found;
      start = Number(next);
    }
  },
};

/** Resources whose name is unique in practice: refuse names that exist or repeat, then a name finds its record. */
function byName(list: Operation, what: string): Reconciler {
  const all = async (http: HttpPort): Promise<Array<Record<string, unknown>>> => {
    const out: Array<Record<string, unknown>> = [];
    let start: number | undefined;
    for (;;) {
      const query = list.pagination === 'offset' ? { limit: 500, ...(start !== undefined ? { start } : {}) } : {};
      const { envelope } = await callOperation(http, list, await prepare(readerOf(http), list, { query }));
      const page = (recordsOf(list, envelope) as Array<Record<string, unknown>> | null) ?? [];
      out.push(...page);
      const next = list.pagination === 'offset' ? nextPage(list, envelope) : undefined;
      if (next === undefined || page.length === 0) return out;
      start = Number(next);
    }
  };
  const key = (b: Record<string, unknown>) => (typeof b.name === 'string' ? b.name.trim() : undefined);
  return {
    kind: 'natural-key',
    describe: `${what} name (names that already exist or repeat in the file are refused), found by listing ${what}s`,
    prepare: (body) => body,
    key,
    async existing(http) {
      return new Map((await all(http)).filter((r) => typeof r.name === 'string').map((r) => [String(r.name).trim(), r.id as string | number]));
    },
    async find(http, rows) {
      const byKey = new Map((await all(http)).map((r) => [String(r.name).trim(), r]));
      const found = new Map<number, Record<string, unknown>>();
      for (const r of rows) {
        const rec = byKey.get(key(r.body) ?? '');
        if (rec) found.set(r.line, rec);
      }
      return found;
    },
  };
}

const none: Reconciler = {
  kind: 'none',
  describe: 'none: sent one at a time; a row whose answer is lost is reported as "outcome unknown", never resent',
  prepare: (body) => body,
  find: async () => new Map(),
};

/** Kinds without a marker field: a lost create is looked up by the row's content (content-lookup.ts). */
function byContent(resource: string, d: ContentDescriptor): Reconciler | undefined {
  const list = findExportResource(resource);
  if (!list || list.required.length || !fieldsOf(list.op.query, 'query').some((f) => f.key === 'updated_since')) return undefined;
  return {
    kind: 'content',
    describe: `looked up by content (${d.fields.join(', ')}) among ${resource} added since the send, with ${list.op.method} ${list.op.path}?updated_since=...`,
    prepare: (body) => body,
    find: (http, rows, since, taken) => findByContent(http, list.op, d, rows, cutoffFor(http, since), taken),
  };
}

const STRATEGIES: Record<string, Reconciler> = {
  leads,
  'lead-labels': byName(leadLabelOps.list, 'lead label'),
  roles: byName(roleOps.list, 'role'),
  'activity-types': byName(activityTypeOps.list, 'activity type'),
};

export function reconcilerFor(resource: string): Reconciler {
  const d = CONTENT_DESCRIPTORS[resource];
  return STRATEGIES[resource] ?? (d ? byContent(resource, d) : undefined) ?? none;
}
