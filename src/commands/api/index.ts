import { STATUS_CODES } from 'node:http';
import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag, type FlagValues } from '../../core/flags.js';
import type { Context } from '../../core/context.js';
import { UsageError, ValidationError } from '../../core/errors.js';
import type { HttpRequest, HttpResponse } from '../../http/types.js';
import { pathProblem } from '../../core/request-path.js';
import { isSecretKey, REDACTED, redactText } from '../../core/redact.js';
import { deprecationNotice } from '../../core/deprecation.js';
import { parseFieldArgs, parseHeaders, toBody, toQuery } from './fields.js';
import { maskSecrets } from '../../output/secrets.js';
import { formatFor } from '../../output/format.js';
import type { OutputFormat } from '../../core/globals.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const API_FLAGS = {
  method: flag.string({ short: 'X', value: 'method', description: 'HTTP method (default GET)' }),
  field: flag.list({ short: 'F', value: 'key=value', description: 'typed field (repeatable)' }),
  rawField: flag.list({ short: 'f', value: 'key=value', description: 'string field (repeatable)' }),
  header: flag.list({ short: 'H', value: 'line', description: '"Name: value" request header (repeatable)' }),
  input: flag.string({ value: 'file', description: 'request body: a JSON file, or - for stdin' }),
  include: flag.bool({ short: 'i', description: 'print the status line and response headers before the body' }),
  paginate: flag.bool({ description: 'follow every page and stream the records' }),
  raw: flag.bool({ description: 'send a method and path the operation tables do not know (experiments); checked otherwise' }),
};

const apiCommand = defineCommand({
  path: ['api'],
  summary: 'Call any endpoint with the profile\'s auth, retries and pacing (gh api style)',
  description: [
    'Fields: -F key=value is typed (true, false, null, numbers; @file reads a file), -f key=value is a',
    'string. Nested keys: a[b]=1 or a.b=1; ids[]=1 appends. For GET they go to the query string,',
    'otherwise to the JSON body (to the query when --input gives the body).',
    '--paginate follows offset (additional_data.pagination) and cursor (next_cursor) pages and streams',
    'the records: a JSON array by default, one per line with --output ndjson.',
    'A POST is never resent when its outcome is unknown (connection reset, 502/503/504).',
    'The method and path are checked against the operation tables (a typo names the nearest known path,',
    'exit 2, nothing sent); --raw sends them as they are. Shell completion offers the known paths.',
  ].join('\n'),
  examples: [
    'crmctl api /api/v1/leadLabels',
    'crmctl api POST /api/v1/leadLabels -f name="Partner" -f color=green',
    'crmctl api /api/v1/leads -F limit=500 --paginate --output ndjson > leads.ndjson',
    'crmctl api PATCH /api/v1/leads/<id> -F value[amount]=5000 -f value[currency]=EUR',
    'crmctl api PUT /api/v1/mailbox/mailThreads/5 -F read_flag=1 -H "Content-Type: application/x-www-form-urlencoded"',
    'crmctl api POST /api/v1/webhooks --input webhook.json --include',
  ],
  args: [
    { name: 'method-or-path', description: 'METHOD PATH, or just PATH (GET)', required: true, complete: { words: [...METHODS], operationPaths: true } },
    { name: 'path', description: 'path such as /api/v1/leads (when METHOD is given first)', required: false, complete: { operationPaths: true } },
  ],
  flags: API_FLAGS,
  run: (ctx, { args, flags }) => runApi(ctx, args, flags),
});

async function runApi(ctx: Context, args: string[], opts: FlagValues<typeof API_FLAGS>): Promise<void> {
  const { method, path: rawPath } = methodAndPath(args, opts.method);
  const [path, search] = splitQuery(rawPath);
  const fields = parseFieldArgs(opts.field, opts.rawField);
  const headers = parseHeaders(opts.header);
  const form = /application\/x-www-form-urlencoded/i.test(headers['content-type'] ?? '');
  delete headers['content-type']; // the client sets it from the encoding

  const query: NonNullable<HttpRequest['query']> = { ...search };
  let body: unknown;
  if (opts.input !== undefined) {
    // The same 5 MB cap and UTF-8 check as --data @file / --data - of the other commands.
    const { readInputText } = await import('../../input/sources.js');
    const text = await readInputText(ctx.io.stdin, opts.input === '-' ? '-' : `@${opts.input}`, '--input');
    try {
      body = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ValidationError([{ field: '--input', rule: 'must be JSON' }]);
    }
    Object.assign(query, toQuery(fields));
  } else if (method === 'GET') {
    Object.assign(query, toQuery(fields));
  } else if (fields.length) {
    body = toBody(fields);
  }
  if (form && body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body) || Object.values(body).some((v) => v !== null && typeof v === 'object'))) {
    throw new ValidationError([{ field: '-H Content-Type', rule: 'a form body must be flat key=value fields' }]);
  }

  const { matchOperation, explainUnknown } = await import('../../automation/route-match.js');
  const op = matchOperation(method, path);
  if (!op && !opts.raw) throw new ValidationError([{ field: '<path>', rule: explainUnknown(method, path) }], 'Nothing was sent. Pass --raw to send a method and path the tables do not know.');
  const request: HttpRequest = {
    method,
    path,
    query,
    body,
    encoding: form ? 'form' : 'json',
    headers,
    idempotent: method !== 'POST',
    cost: op?.cost ?? null,
    scopes: op ? [...op.scopes] : undefined,
    notice: op ? deprecationNotice(op) : undefined,
  };
  const http = await ctx.http();
  if (!opts.paginate) {
    // With --include an error answer is printed too (status, headers, body), then exits by its status.
    const onErrorResponse = opts.include ? async (r: HttpResponse) => write(ctx, scrub(ctx, statusBlock(r) + bodyText(r.body, formatFor(ctx, 'raw'), ctx.globals.showSecrets))) : undefined;
    const res = await http.send({ ...request, onErrorResponse });
    if (opts.include) await write(ctx, scrub(ctx, statusBlock(res)));
    // --query applies to a JSON answer (masked first, like every record it prints).
    const queried = ctx.globals.query && typeof res.body !== 'string' && res.body !== undefined;
    const text = queried ? await (await import('../../output/query.js')).queriedText(ctx, ctx.globals.showSecrets ? res.body : maskSecrets(res.body)) : bodyText(res.body, formatFor(ctx, 'raw'), ctx.globals.showSecrets);
    await write(ctx, scrub(ctx, text));
    return;
  }
  await paginateRaw(ctx, request, opts.include, (req) => http.send(req));
}

/** Streams the records of every page: as pages arrive, never holding more than one. */
async function paginateRaw(ctx: Context, first: HttpRequest, include: boolean, send: (r: HttpRequest) => Promise<HttpResponse>): Promise<void> {
  const { detectNext, pageRecords } = await import('../../automation/raw-pages.js');
  const format = formatFor(ctx, 'raw');
  async function* records(): AsyncGenerator<unknown> {
    let req = first;
    for (;;) {
      const res = await send(req);
      if (include) await write(ctx, scrub(ctx, statusBlock(res)));
      const page = pageRecords(res.body);
      yield* ctx.globals.showSecrets ? page : page.map(maskSecrets);
      const next = detectNext(res.body);
      if (!next || page.length === 0) return;
      req = { ...req, query: { ...req.query, ...next } };
    }
  }
  // --query needs the whole array: renderRecords collects it.
  if ((format === 'json' || format === 'ndjson') && !ctx.globals.query) {
    let n = 0;
    for await (const r of records()) {
      await write(ctx, scrub(ctx, format === 'ndjson' ? `${JSON.stringify(r)}\n` : `${n === 0 ? '[\n' : ',\n'}  ${JSON.stringify(r)}`));
      n++;
    }
    if (format === 'json') await write(ctx, n === 0 ? '[]\n' : '\n]\n');
    return;
  }
  const { renderRecords } = await import('../../output/render.js');
  await renderRecords(ctx, records());
}

function methodAndPath(given: string[], flag: string | undefined): { method: string; path: string } {
  const args = given.filter((a) => a !== undefined && a !== '');
  let method = flag?.toUpperCase();
  let path = args[0];
  if (args.length >= 2) {
    if (flag && flag.toUpperCase() !== args[0]!.toUpperCase()) throw new UsageError(`the method is given twice: ${args[0]} and --method ${flag}`);
    method = args[0]!.toUpperCase();
    path = args[1];
  }
  method ??= 'GET';
  if (!(METHODS as readonly string[]).includes(method)) throw new ValidationError([{ field: args.length >= 2 ? '<method>' : '--method', rule: `must be one of ${METHODS.join(', ')} (got ${JSON.stringify(method)})` }]);
  if (!path?.startsWith('/')) throw new ValidationError([{ field: '<path>', rule: `must start with /, e.g. /api/v1/leads (got ${JSON.stringify(path ?? '')})` }]);
  // Checked again where the URL is built; here so the refusal comes before any credential is read.
  const problem = pathProblem(path.split('?')[0]!);
  if (problem) throw new ValidationError([{ field: '<path>', rule: `${problem} (got ${JSON.stringify(path)})` }], 'Nothing was sent: credentials go only to the profile\'s API address.');
  return { method, path };
}

function splitQuery(path: string): [string, Record<string, string>] {
  const i = path.indexOf('?');
  if (i < 0) return [path, {}];
  return [path.slice(0, i), Object.fromEntries(new URLSearchParams(path.slice(i + 1)))];
}

/** `HTTP/1.1 200 OK` and the headers, then a blank line, as curl -i and gh api --include print them. */
function statusBlock(res: HttpResponse): string {
  const lines = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd()];
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) lines.push(`${headerCase(k)}: ${isSecretKey(k) ? REDACTED : one}`);
  }
  return `${lines.join('\n')}\n\n`;
}

const headerCase = (k: string) => k.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());

function bodyText(body: unknown, output: OutputFormat, showSecrets = false): string {
  if (body === undefined) return '';
  if (typeof body === 'string') return body.endsWith('\n') ? body : `${body}\n`;
  // A raw answer is still output: its secrets are masked like every record's (src/output/secrets.ts).
  if (!showSecrets) body = maskSecrets(body);
  return output === 'ndjson' ? `${JSON.stringify(body)}\n` : `${JSON.stringify(body, null, 2)}\n`;
}

/**
 * A service (or something posing as one) may echo the credentials back, in a header or the body, as
 * is or URL-encoded: what this command prints never carries them.
 */
function scrub(ctx: Context, text: string): string {
  return redactText(text, ctx.knownSecrets());
}

/** Respects back-pressure so a slow reader does not make us buffer every page. */
function write(ctx: Context, text: string): Promise<void> | void {
  if (!text || ctx.io.stdout.write(text)) return;
  return new Promise((resolve) => ctx.io.stdout.once('drain', () => resolve()));
}

export const area: AreaModule = { commands: [apiCommand] };
