// Issue 28.13: persons exported from one account and imported into another carried that account's label
// ids; the service refused 4 rows (`label_ids … not person labels`) and the import ended with exit 7,
// though every row had been checked. Every id list of a body (labels of persons, organizations, deals and
// projects; a project's deals, persons and organizations) is now an account check of the one entry:
// an unknown id is exit 2 naming the field and the id, nothing sent, at every door, and a run reads each
// label field once however many rows it checks.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
let mcp: Client;

beforeAll(async () => {
  fx = await startFixture({ seed: 'demo' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--allow-writes', '--areas', 'persons'], env: cleanEnv(fx.env) as Record<string, string>, stderr: 'pipe' });
  mcp = new Client({ name: 'crmctl-test', version: '1.0.0' });
  await mcp.connect(transport);
});
afterAll(async () => {
  await mcp.close();
  await fx.close();
});
beforeEach(async () => {
  await fx.clearRequests();
});

const run = (args: string[]) => runCli(args, { env: fx.env });
const sent = async () => (await fx.requests()).map((r) => `${r.method} ${r.path}`);
const NO_PERSON_LABEL = 'no such person label: 9 (see crmctl person-fields get label_ids)';
const PERSON_LABELS = 'GET /api/v2/personFields/label_ids';

describe('person label ids: the same refusal at every door, nothing written', () => {
  it('a command: exit 2 naming --label-ids and the id; the one read is the label field', async () => {
    const r = await run(['persons', 'create', '--name', 'Probe', '--label-ids', '1,9']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: --label-ids: ${NO_PERSON_LABEL}\n` });
    expect(await sent()).toEqual([PERSON_LABELS]);
    // Known labels pass, and the write goes out.
    const ok = await run(['persons', 'create', '--name', 'Probe', '--label-ids', '1,4', '--json']);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    expect(JSON.parse(ok.stdout).label_ids).toEqual([1, 4]);
  });

  it('an MCP call: an error result naming label_ids, nothing sent but the read', async () => {
    const r = (await mcp.callTool({ name: 'persons_create', arguments: { name: 'Probe', label_ids: [9] } })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain(`label_ids: ${NO_PERSON_LABEL}`);
    expect(await sent()).toEqual([PERSON_LABELS]);
  });

  it('an import of 10,000 rows whose last row names a label of another account: exit 2 naming the line, the label field read once, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-idlists-'));
    const file = join(dir, 'persons.csv');
    const rows = Array.from({ length: 9_999 }, (_, i) => `Person ${i},"${(i % 4) + 1},${((i + 1) % 4) + 1}"`);
    writeFileSync(file, `name,label_ids\n${rows.join('\n')}\nStranger,9\n`);
    const r = await run(['import', 'persons', '--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`line 10001: label_ids: ${NO_PERSON_LABEL}`);
    expect(await sent()).toEqual([PERSON_LABELS]);
    expect((await fx.collection<{ name: string }>('persons')).some((p) => p.name === 'Person 0')).toBe(false);
  }, 120_000);
});

describe('the other id lists', () => {
  it.each([
    [['organizations', 'create', '--name', 'Probe', '--label-ids', '601,42'], '--label-ids: no such organization label: 42 (see crmctl organization-fields get label_ids)', ['GET /api/v2/organizationFields/label_ids']],
    [['deals', 'create', '--title', 'Probe', '--label-ids', '77'], '--label-ids: no such deal label: 77 (see crmctl deal-fields get label)', ['GET /api/v2/dealFields/label']],
    [['deals', 'update', '1', '--label-ids', '501,77'], '--label-ids: no such deal label: 77 (see crmctl deal-fields get label)', ['GET /api/v2/dealFields/label']],
    [['projects', 'create', '--title', 'Probe', '--deal-ids', '1,9999'], '--deal-ids: no such deal: 9999 (see crmctl deals list)', ['GET /api/v2/deals/1', 'GET /api/v2/deals/9999']],
    [['projects', 'create', '--title', 'Probe', '--person-ids', '9999'], '--person-ids: no such person: 9999 (see crmctl persons list)', ['GET /api/v2/persons/9999']],
    [['projects', 'update', '1', '--org-ids', '9999'], '--org-ids: no such organization: 9999 (see crmctl organizations list)', ['GET /api/v2/organizations/9999']],
    [['projects', 'create', '--title', 'Probe', '--label-ids', '99'], '--label-ids: no such project label: 99 (see crmctl project-fields get label_ids)', ['GET /api/v2/projectFields/label_ids']],
    [['projects', 'update', '1', '--v1', '--labels', '99'], '--labels: no such project label: 99 (see crmctl project-fields get label_ids)', ['GET /api/v2/projectFields/label_ids']],
  ])('%j: exit 2, %s, only the reads sent', async (args, message, reads) => {
    const r = await run(args);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: ${message}\n` });
    expect(await sent()).toEqual(reads);
  });

  it('ids that exist pass: a project linked to a deal, a person and an organization, with a label', async () => {
    const r = await run(['projects', 'create', '--title', 'Linked', '--deal-ids', '1', '--person-ids', '1', '--org-ids', '1', '--label-ids', '1', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ deal_ids: [1], person_ids: [1], org_ids: [1], label_ids: [1] });
  });
});
