// A tool call with an argument of many MB is answered with a tool error naming the limit, and the
// server goes on answering: the SDK's own reader would have closed the connection at 10 MB.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture({ seed: 'demo' });
});
afterAll(async () => fx.close());

describe('crmctl mcp: oversized messages', () => {
  it('a 20 MB argument is a tool error naming the limit; nothing is sent; the next call is answered', async () => {
    let stderr = '';
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--allow-writes'], env: cleanEnv(fx.env) as Record<string, string>, stderr: 'pipe' });
    transport.stderr?.on('data', (d) => (stderr += String(d)));
    const client = new Client({ name: 'crmctl-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await fx.clearRequests();
      const content = 'x'.repeat(20 * 1024 * 1024);
      const r = (await client.callTool({ name: 'notes_create', arguments: { content, deal_id: 1 } })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toMatch(/^Refused: notes_create: the message is \d+ bytes; crmctl mcp reads messages of at most 1048576 bytes \(the service refuses requests this large\)\. Nothing was sent\.$/);
      expect(Number(/is (\d+) bytes/.exec(r.content[0]!.text)![1])).toBeGreaterThan(20 * 1024 * 1024);
      expect(await fx.requests()).toEqual([]);
      // The server is still there and answers the next call.
      const next = (await client.callTool({ name: 'notes_create', arguments: { content: 'small note', deal_id: 1 } })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(next.isError, next.content[0]?.text).not.toBe(true);
      expect(JSON.parse(next.content[0]!.text).data).toMatchObject({ content: 'small note', deal_id: 1 });
      expect(stderr).toContain('mcp: refused a');
    } finally {
      await client.close();
    }
  }, 60_000);
});
