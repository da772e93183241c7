// What the MCP tests share: a client spawning the bundle as an assistant's client would, a tool call
// as text, and the answer of a successful result (checked for the note that marks content as data).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'vitest';
import { UNTRUSTED_NOTE } from '../../src/mcp/untrusted.js';
import { BIN, cleanEnv } from '../helpers/cli.js';

/** `crmctl mcp <flags>` over stdio with this environment; `onStderr` sees what the server writes there. */
export async function connectMcp(env: Record<string, string | undefined>, flags: string[] = [], onStderr?: (text: string) => void): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...flags], env: cleanEnv(env) as Record<string, string>, stderr: 'pipe' });
  if (onStderr) transport.stderr?.on('data', (d) => onStderr(String(d)));
  const client = new Client({ name: 'crmctl-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** One tool call: whether it is an error, and its text. */
export async function callMcpTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; text: string }> {
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ type: string; text: string }> };
  return { isError: r.isError === true, text: r.content.map((c) => c.text).join('\n') };
}

/** A successful result or resource: the fixed note that its content is data, and the answer under `data`. */
export function dataOf(text: string): any {
  const parsed = JSON.parse(text);
  expect(Object.keys(parsed)).toEqual(['untrusted_content', 'data']);
  expect(parsed.untrusted_content).toBe(UNTRUSTED_NOTE);
  return parsed.data;
}
