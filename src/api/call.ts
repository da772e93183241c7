import type { HttpPort } from '../core/http-port.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import { deprecationNotice } from '../core/deprecation.js';
import { CliError, ValidationError } from '../core/errors.js';
import { pathParamProblem } from './path-param.js';
import { isIdempotent, type Operation } from './operation.js';
import type { PageOptions, Prepared } from './entry-types.js';

export type { PageOptions } from './entry-types.js';

export interface OperationInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface Envelope {
  success?: boolean;
  data?: unknown;
  additional_data?: Record<string, unknown> | null;
  related_objects?: unknown;
}

export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === null || v === '') throw new CliError(`internal: path parameter ${name} missing for ${path}`);
    // Also checked by validateInput; here for callers that fill a path from a record (apply, import).
    const problem = pathParamProblem(v);
    if (problem) throw new ValidationError([{ field: `<${name}>`, rule: problem }]);
    return encodeURIComponent(String(v));
  });
}

export function toRequest(op: Operation, input: Prepared, extra: Partial<HttpRequest> = {}): HttpRequest {
  return {
    method: op.method,
    path: fillPath(op.path, input.params),
    query: input.query as HttpRequest['query'],
    body: input.body,
    encoding: op.encoding ?? 'json',
    idempotent: isIdempotent(op),
    cost: op.cost,
    scopes: [...op.scopes],
    notice: deprecationNotice(op),
    ...extra,
  };
}

/** Calls one operation and returns the parsed envelope. Only input that went through `prepare` is taken. */
export async function callOperation(http: HttpPort, op: Operation, input: Prepared, extra: Partial<HttpRequest> = {}): Promise<{ envelope: Envelope; response: HttpResponse }> {
  const response = await http.send(toRequest(op, input, extra));
  // A JSON answer that does not parse (cut off, or not the service at all) is an error, not data to print.
  if (typeof response.body === 'string' && /^[[{]/.test(response.body.trimStart())) {
    throw new CliError(
      `The service answered ${response.status} for ${op.method} ${fillPath(op.path, input.params)} with a body that is not valid JSON (${response.body.length} characters).`,
      undefined,
      'Check that the API address (CRMCTL_API_DOMAIN or the profile\'s) is the service, then retry; --debug shows the answer (secrets redacted).',
    );
  }
  const envelope = (response.body && typeof response.body === 'object' ? response.body : { data: response.body }) as Envelope;
  return { envelope, response };
}

/** The records of a response: `data`, or `data[unwrap]` for operations that nest them (goals). */
export function recordsOf(op: Pick<Operation, 'cli'>, envelope: Envelope): unknown {
  const data = envelope.data;
  if (op.cli.unwrap && data && typeof data === 'object' && !Array.isArray(data)) {
    return (data as Record<string, unknown>)[op.cli.unwrap];
  }
  return data;
}

/**
 * Records as the CLI shows them: bare values (a list of user ids) become `{ [cli.wrapValues]: value }`
 * so tables, TSV and --fields have a column to show; other records pass through.
 */
export async function* asRecords(op: Pick<Operation, 'cli'>, records: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  const key = op.cli.wrapValues;
  for await (const r of records) yield key && (r === null || typeof r !== 'object') ? { [key]: r } : r;
}

/**
 * Records of a list operation as an async iterator, page by page in constant memory, for both
 * pagination styles: offset (start/limit, additional_data.pagination) and cursor (additional_data.next_cursor).
 */
export async function* paginate(http: HttpPort, op: Operation, input: Prepared, opts: PageOptions = {}): AsyncGenerator<unknown> {
  const max = op.maxLimit ?? 500;
  const query: Record<string, unknown> = { ...(input.query ?? {}) };
  const pageSize = Math.min(max, Number(query.limit ?? (opts.limit ?? (opts.all ? max : 100))));
  if (op.pagination !== 'none') query.limit = opts.all ? Math.min(max, Math.max(pageSize, opts.limit ?? max)) : pageSize;
  if (opts.from !== undefined) {
    if (op.pagination === 'offset') query.start = Number(opts.from);
    if (op.pagination === 'cursor') query.cursor = String(opts.from);
  }
  let emitted = 0;
  for (;;) {
    const { envelope } = await callOperation(http, op, { ...input, query });
    const data = recordsOf(op, envelope);
    const records = Array.isArray(data) ? data : data == null ? [] : [data];
    const next = nextPage(op, envelope);
    for (const r of records) {
      if (opts.limit !== undefined && emitted >= opts.limit) return;
      emitted++;
      yield r;
    }
    await opts.onPage?.({ next, count: records.length, total: totalOf(envelope) });
    if (next === undefined || records.length === 0) return;
    if (opts.limit !== undefined && emitted >= opts.limit) return;
    if (!opts.all && opts.limit === undefined) return;
    if (op.pagination === 'offset') query.start = next;
    else query.cursor = next;
  }
}

/** The query of one page of a list: `limit` records from `at` (nextPage's answer: an offset list's start, a cursor list's cursor; undefined: the first page). */
export function pageQuery(op: Operation, query: Record<string, unknown>, limit: number, at: string | number | undefined): Record<string, unknown> {
  const q = { ...query };
  if (op.pagination !== 'none') q.limit = limit;
  if (at !== undefined) q[op.pagination === 'offset' ? 'start' : 'cursor'] = at;
  return q;
}

export function nextPage(op: Operation, envelope: Envelope): string | number | undefined {
  const add = envelope.additional_data ?? {};
  if (op.pagination === 'cursor') {
    const c = (add as Record<string, unknown>).next_cursor;
    return typeof c === 'string' && c ? c : undefined;
  }
  if (op.pagination === 'offset') {
    // The spec puts pagination under additional_data.pagination, but a few schemas put it directly
    // under additional_data; read both.
    const p = ((add as Record<string, unknown>).pagination ?? add) as Record<string, unknown>;
    if (p.more_items_in_collection !== true) return undefined;
    const n = Number(p.next_start ?? Number(p.start ?? 0) + Number(p.limit ?? 0));
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** How many records the list holds in all, when the service says (v1 pagination's total_count). */
export function totalOf(envelope: Envelope): number | undefined {
  const add = (envelope.additional_data ?? {}) as Record<string, unknown>;
  const p = (add.pagination ?? add) as Record<string, unknown>;
  const t = Number(p.total_count ?? p.total);
  return Number.isFinite(t) ? t : undefined;
}
