import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture({ seed: 'demo' });
});
afterAll(async () => fx.close());
beforeEach(async () => fx.clearRequests());

/** An id that a URL parser would collapse, or that would read as more than one path segment. */
const BAD: Array<[string, string]> = [
  ['..', 'must not be "." or ".." (got "..")'],
  ['.', 'must not be "." or ".." (got ".")'],
  ['%2e%2E', 'must not be "." or ".." (got "%2e%2E")'],
  ['.%2e', 'must not be "." or ".." (got ".%2e")'],
  ['a/b', 'must not contain a slash or backslash (got "a/b")'],
  ['..\\x', 'must not contain a slash or backslash (got "..\\\\x")'],
];

describe('dot segments and slashes in path parameters: exit 2, naming the parameter, nothing sent', () => {
  it('the command line (call-logs delete, deal-fields delete, deal-fields get)', async () => {
    for (const [id, rule] of BAD) {
      for (const [argv, name] of [
        [['call-logs', 'delete', id, '--yes'], 'id'],
        [['deal-fields', 'delete', id, '--yes'], 'field_code'],
        [['deal-fields', 'get', id], 'field_code'],
      ] as Array<[string[], string]>) {
        const r = await runCli(argv, { env: fx.env });
        expect(r.code, argv.join(' ')).toBe(2);
        expect(r.stderr).toBe(`error: <${name}>: ${rule}\n`);
        expect(r.stdout).toBe('');
      }
    }
    // A value the schema trims to a dot is refused too (the trimmed value is what goes into the path).
    const trimmed = await runCli(['call-logs', 'delete', ' .. ', '--yes'], { env: fx.env });
    expect(trimmed.code).toBe(2);
    expect(trimmed.stderr).toBe('error: <id>: must not be "." or ".." (got "..")\n');
    expect(await fx.requests()).toEqual([]);
  });

  it('the MCP door: deal_fields_get {"field_code":"."} is a tool error and the server keeps answering', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--allow-writes', '--allow-destructive'], env: cleanEnv(fx.env) as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'crmctl-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
        return { isError: r.isError === true, text: r.content.map((c) => c.text).join('\n') };
      };
      expect(await call('deal_fields_get', { field_code: '.' })).toEqual({ isError: true, text: 'Invalid arguments, nothing was sent:\nfield_code: must not be "." or ".." (got ".")' });
      expect(await call('call_logs_delete', { id: '..' })).toEqual({ isError: true, text: 'Invalid arguments, nothing was sent:\nid: must not be "." or ".." (got "..")' });
      expect(await call('deal_fields_delete', { field_code: '%2e' })).toEqual({ isError: true, text: 'Invalid arguments, nothing was sent:\nfield_code: must not be "." or ".." (got "%2e")' });
      expect(await fx.requests()).toEqual([]);
      const ok = await call('deal_fields_get', { field_code: 'title' });
      expect(ok.isError).toBe(false);
    } finally {
      await client.close();
    }
  });
});
