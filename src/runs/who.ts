/**
 * Who or what made a run, as `runs list` names it: an MCP client (by the name it gave in `initialize`),
 * CI (the CI variable), a person at a terminal (stdin and stdout are terminals), else a script.
 */
import type { Context } from '../core/context.js';
import { isCI } from '../core/io.js';

export type Who = 'mcp' | 'ci' | 'terminal' | 'script';

/** An MCP tool call's door: the client's name and the tool it called. */
export interface McpCaller {
  client?: string;
  tool?: string;
}

export function whoOf(ctx: Pick<Context, 'env' | 'io'>, mcp?: McpCaller): Who {
  if (mcp) return 'mcp';
  if (isCI(ctx.env)) return 'ci';
  return ctx.io.isStdinTTY && ctx.io.isStdoutTTY ? 'terminal' : 'script';
}

/** `terminal`, `mcp Claude Desktop (update_deal)`. */
export function describeWho(r: { who?: string; client?: string; tool?: string }): string {
  if (!r.who) return '';
  if (r.who !== 'mcp') return r.who;
  return ['mcp', r.client, r.tool ? `(${r.tool})` : undefined].filter(Boolean).join(' ');
}
