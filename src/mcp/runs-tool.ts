/**
 * `recent_runs`: the assistant's own recent writes as crmctl recorded them (src/automation/record-write.ts),
 * read-only, so it can tell the user what it changed and which run id `crmctl undo` takes back. The undo
 * itself is not a tool: taking back writes is the user's call at a terminal, never one a text in a record
 * could talk an assistant into.
 */
import type { Context } from '../core/context.js';
import { CliError } from '../core/errors.js';
import { dataResult, errorResult, type ToolResult } from './call-tool.js';

export const RECENT_RUNS = 'recent_runs';

export const RUNS_TOOL = {
  name: RECENT_RUNS,
  title: 'Your recent writes',
  description: 'The writes this assistant (any MCP client) made to the account, newest first: run id, when, tool, what, outcome. The user takes one back with `crmctl undo RUN_ID`.',
  inputSchema: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 50, description: 'default 10' } }, additionalProperties: false },
  annotations: { title: 'Your recent writes', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const;

export async function callRunsTool(ctx: Context, args: Record<string, unknown>): Promise<ToolResult> {
  const unknown = Object.keys(args).filter((k) => k !== 'limit');
  if (unknown.length) return errorResult(`Invalid arguments:\n${unknown.map((k) => `arguments: unknown key ${k}; known: limit`).join('\n')}`);
  const limit = args.limit ?? 10;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 50) return errorResult('Invalid arguments:\nlimit: must be an integer from 1 to 50');
  try {
    const [{ accountOf }, { listRecords }] = await Promise.all([import('../runs/account.js'), import('../runs/registry.js')]);
    const runs = listRecords(ctx.env, await accountOf(ctx)).filter((r) => r.who === 'mcp').slice(0, limit);
    return dataResult({
      runs: runs.map((r) => ({ id: r.id, started_at: r.started_at, client: r.client ?? null, tool: r.tool ?? null, what: r.input, status: r.status, summary: r.summary ?? null, cost: r.cost ?? null })),
      undo: 'The user takes a run back with: crmctl undo RUN_ID',
    });
  } catch (err) {
    if (err instanceof CliError) return errorResult([err.message, err.hint].filter(Boolean).join('\n'));
    throw err;
  }
}
