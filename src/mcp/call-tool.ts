import { callOperation, nextPage, recordsOf, totalOf } from '../api/call.js';
import { recordedWrite } from '../automation/record-write.js';
import { prepare, type Prepared } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { CliError, ValidationError } from '../core/errors.js';
import { redactText } from '../core/redact.js';
import type { RawInput } from '../input/operation-input.js';
import { unknownKeyRule } from '../input/unknown-keys.js';
import { customFieldNames, namedResult } from './names.js';
import { callRefusal, DEFAULT_PAGE, refusal, type ToolDef, type ToolPolicy } from './tools.js';
import { markedJson } from './untrusted.js';

/** What a tool call answers: the answer marked as data (untrusted.ts), or an error the model can read (isError), never a crash. */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

export const dataResult = (value: unknown): ToolResult => ({ content: [{ type: 'text', text: markedJson(value) }] });
export const errorResult = (message: string): ToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/**
 * Runs one operation, whichever way it was reached (a named tool, or call_operation of the discovery
 * tools): the one place the policy is enforced, so hiding a tool is never what keeps it from running.
 * The CLI's rules: the policy (read-only unless --allow-writes, deletes
 * only with --allow-destructive), the one entry every command takes before anything is sent (unknown
 * keys, the schemas, the operation's account checks; issues name the argument as the service names
 * it), the client's cost governor and retries, and every message
 * scrubbed of credentials.
 */
export async function callTool(ctx: Context, tool: ToolDef, args: Record<string, unknown>, policy: ToolPolicy, opts: { names?: boolean } = {}): Promise<ToolResult> {
  const secrets = () => ctx.knownSecrets();
  const fail = (message: string): ToolResult => errorResult(redactText(message, secrets()));
  const refused = refusal(tool, policy);
  if (refused) return fail(`Refused: ${refused}. Nothing was sent.`);
  if (policy.areas && !policy.areas.has(tool.area)) return fail(`Refused: ${tool.name} is outside the areas this server offers (--areas). Nothing was sent.`);

  const unknown = Object.keys(args).filter((k) => !(k in tool.placement));
  if (unknown.length) return fail(`Invalid arguments, nothing was sent:\n${unknown.map((k) => `arguments: ${unknownKeyRule(k, Object.keys(tool.placement))}`).join('\n')}`);

  const raw: RawInput = { params: {}, query: {}, body: undefined };
  let fields: string[] | undefined;
  let names = opts.names === true;
  for (const [k, v] of Object.entries(args)) {
    const where = tool.placement[k]!;
    if (where === 'names') {
      if (typeof v !== 'boolean') return fail(`Invalid arguments, nothing was sent:\n${k}: must be true or false`);
      names ||= v;
    } else if (where === 'fields') fields = Array.isArray(v) ? v.map(String) : undefined;
    else if (where === 'params') raw.params[k] = typeof v === 'number' ? String(v) : v;
    else if (where === 'query') raw.query[k] = v;
    else if (tool.bodyNested) raw.body = v;
    else raw.body = { ...((raw.body as Record<string, unknown> | undefined) ?? {}), [k]: v };
  }
  // The arguments decide for some writes (active_flag false, an emptied member list): the call is classified, not only the tool.
  const destructive = callRefusal(tool, raw.body, policy);
  if (destructive) return fail(`Refused: ${destructive}. Nothing was sent.`);
  const op = tool.op;
  let known = op.cli.fields ?? [];
  // With names, the records' custom fields are picked by name too (one field-metadata read, cached per profile).
  if (names && fields?.some((f) => !known.includes(f))) {
    try {
      known = [...known, ...(await customFieldNames(ctx, op))];
    } catch (err) {
      if (err instanceof CliError) return fail([err.message, err.hint].filter(Boolean).join('\n'));
      throw err;
    }
  }
  const badFields = (fields ?? []).filter((f) => !known.includes(f));
  if (badFields.length) return fail(`Invalid arguments, nothing was sent:\n${tool.fieldsArg}: unknown field${badFields.length > 1 ? 's' : ''} ${badFields.join(', ')}; fields: ${known.join(', ')}`);
  if (op.pagination !== 'none' && raw.query.limit === undefined) raw.query.limit = Math.min(DEFAULT_PAGE, op.maxLimit ?? DEFAULT_PAGE);

  try {
    let input: Prepared;
    try {
      input = await prepare(ctx, op, raw, { naming: 'keys', container: 'arguments' });
    } catch (err) {
      if (err instanceof ValidationError) return fail(`Invalid arguments, nothing was sent:\n${err.issues.map((i) => `${i.field}: ${i.rule}`).join('\n')}`);
      throw err;
    }
    const http = await ctx.http();
    const send = () => callOperation(http, op, input);
    // A write is recorded as the assistant's (client, tool): `crmctl runs list` shows it, `crmctl undo` takes it back.
    const client = policy.clientName?.();
    const { envelope } = tool.kind === 'read' ? await send() : await recordedWrite(ctx, op, input, { kind: 'mcp', mcp: { ...(client ? { client } : {}), tool: tool.name } }, send);
    let data = recordsOf(op, envelope);
    if (names && data != null) data = Array.isArray(data) ? await namedResult(ctx, op, data) : (await namedResult(ctx, op, [data]))[0];
    const pick = (r: unknown) => (fields && r && typeof r === 'object' && !Array.isArray(r) ? Object.fromEntries(fields.map((f) => [f, (r as Record<string, unknown>)[f] ?? null])) : r);
    if (op.pagination === 'none') return dataResult(Array.isArray(data) ? data.map(pick) : pick(data ?? { success: envelope.success ?? true }));
    const records = (Array.isArray(data) ? data : data == null ? [] : [data]).map(pick);
    const next = nextPage(op, envelope);
    const page: Record<string, unknown> = { records, count: records.length, more: next !== undefined };
    if (next !== undefined) page[op.pagination === 'cursor' ? 'next_cursor' : 'next_start'] = next;
    const total = totalOf(envelope);
    if (total !== undefined) page.remaining = Math.max(0, total - Number(input.query.start ?? 0) - records.length);
    return dataResult(page);
  } catch (err) {
    if (err instanceof CliError) return fail([err.message, err.hint].filter(Boolean).join('\n'));
    return fail(`unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
  }
}
