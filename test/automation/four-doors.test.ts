// One operation, four doors: a command, an MCP tool call, an import row and a fixture all take the
// same entry (src/entry/prepare.ts), so the same bad input is refused with the same rule at each, and
// nothing is written. The reads an account check needs are the only requests, listed exactly.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_CHECKS } from '../../src/api/checks/index.js';
import { operationById } from '../../src/api/operations/index.js';
import { BIN, cleanEnv, runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
let mcp: Client;
let personId: number;

beforeAll(async () => {
  fx = await startFixture({ seed: 'demo' });
  personId = (await fx.collection<{ id: number }>('persons'))[0]!.id;
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--allow-writes', '--areas', 'leads'], env: cleanEnv(fx.env) as Record<string, string>, stderr: 'pipe' });
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

const MISSING_LABEL = '00000000-0000-4000-8000-00000000beef';

interface Door {
  /** The refusal as this door shows it (stderr of a command, the text of an MCP error). */
  text: string;
  refused: boolean;
}

/** The same bad member of a lead create, as each door takes it. */
interface BadInput {
  cli: readonly string[];
  body: Record<string, unknown>;
  /** CSV column and cell. */
  csv: readonly [string, string];
  /** Extra lines of the fixture's spec. */
  yaml: string;
}

type DoorName = 'command' | 'mcp' | 'import' | 'fixture';

/** A lead create (title and person, plus the bad member) through each door. */
const doors: Record<DoorName, (bad: BadInput) => Promise<Door>> = {
  async command({ cli }) {
    const r = await runCli(['leads', 'create', '--title', 'Probe', '--person-id', String(personId), ...cli], { env: fx.env });
    return { text: r.stderr, refused: r.code === 2 && r.stdout === '' };
  },
  async mcp({ body }) {
    const r = (await mcp.callTool({ name: 'leads_create', arguments: { title: 'Probe', person_id: personId, ...body } })) as { isError?: boolean; content: Array<{ text: string }> };
    return { text: r.content.map((c) => c.text).join('\n'), refused: r.isError === true && r.content[0]!.text.startsWith('Invalid arguments, nothing was sent:') };
  },
  async import({ csv }) {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-doors-'));
    const file = join(dir, 'leads.csv');
    writeFileSync(file, `title,person_id,${csv[0]}\nProbe,${personId},${csv[1]}\n`);
    const r = await runCli(['import', 'leads', '--file', file], { env: fx.env });
    return { text: r.stderr, refused: r.code === 2 };
  },
  async fixture({ yaml }) {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-doors-'));
    const file = join(dir, 'leads.yaml');
    writeFileSync(file, `- kind: lead\n  name: probe\n  spec:\n    title: Probe\n    person_id: ${personId}\n${yaml}`);
    const r = await runCli(['apply', '-f', file], { env: fx.env });
    return { text: r.stderr, refused: r.code === 2 };
  },
};

const LABELS = 'GET /api/v1/leadLabels';
const DEAL_FIELDS = 'GET /api/v2/dealFields';

const TYPO = '"titel" (did you mean "title"?)';
const NO_LABEL = `no such lead label: ${MISSING_LABEL} (see crmctl lead-labels list)`;
const NOT_NUMBER = 'must be a number';

/**
 * Each case: the input in each door's form, the refusal each door shows (the field as that door
 * names it, then the same rule), and the requests that reach the service (reads only: the account
 * check's, and the import's custom-field look-up).
 */
const cases: Array<{ name: string; input: BadInput; shown: Record<DoorName, string>; reads: Record<DoorName, string[]> }> = [
  {
    name: 'an unknown key',
    input: { cli: ['--data', '{"titel":"x"}'], body: { titel: 'x' }, csv: ['titel', 'x'], yaml: '    titel: x\n' },
    shown: { command: `--data: unknown key ${TYPO}`, mcp: `arguments: unknown key ${TYPO}`, import: `--file: unknown column ${TYPO}`, fixture: `leads.yaml:6 probe.spec.titel: unknown key ${TYPO}` },
    reads: { command: [], mcp: [], import: [DEAL_FIELDS], fixture: [] },
  },
  {
    name: 'a failed account check (a lead label that does not exist)',
    input: { cli: ['--label-ids', MISSING_LABEL], body: { label_ids: [MISSING_LABEL] }, csv: ['label_ids', MISSING_LABEL], yaml: `    label_ids: [${MISSING_LABEL}]\n` },
    shown: { command: `--label-ids: ${NO_LABEL}`, mcp: `label_ids: ${NO_LABEL}`, import: `line 2: label_ids: ${NO_LABEL}`, fixture: `leads.yaml:6 probe.spec.label_ids: ${NO_LABEL}` },
    reads: { command: [LABELS], mcp: [LABELS], import: [LABELS], fixture: [LABELS] },
  },
  {
    name: 'a value of the wrong type',
    input: { cli: ['--data', '{"value":{"amount":"abc","currency":"EUR"}}'], body: { value: { amount: 'abc', currency: 'EUR' } }, csv: ['value.amount', 'abc'], yaml: '    value: { amount: abc, currency: EUR }\n' },
    shown: { command: `--value-amount: ${NOT_NUMBER}`, mcp: `value.amount: ${NOT_NUMBER}`, import: `line 2: value.amount: ${NOT_NUMBER}`, fixture: `leads.yaml:6 probe.spec.value.amount: ${NOT_NUMBER}` },
    reads: { command: [], mcp: [], import: [], fixture: [] },
  },
];

describe('the four doors hold one rule', () => {
  for (const c of cases) {
    for (const door of Object.keys(doors) as DoorName[]) {
      it(`${c.name}: refused by ${door} with the same rule, nothing written`, async () => {
        const r = await doors[door](c.input);
        expect(r.refused).toBe(true);
        expect(r.text).toContain(c.shown[door]);
        expect((await fx.requests()).map((x) => `${x.method} ${x.path}`)).toEqual(c.reads[door]);
      });
    }
  }
});

describe('--data keys a command does not know are refused, not dropped', () => {
  it('lead-labels create with a misspelt colour, and deals create with a misspelt title: exit 2 naming the key and the nearest one, nothing sent', async () => {
    const label = await runCli(['lead-labels', 'create', '--data', '{"name":"Probe","colour":"red","color":"green"}'], { env: fx.env });
    expect(label).toEqual({ code: 2, stdout: '', stderr: 'error: --data: unknown key "colour" (did you mean "color"?)\n' });
    const deal = await runCli(['deals', 'create', '--title', 'T', '--data', '{"titel":"x"}'], { env: fx.env });
    expect(deal).toEqual({ code: 2, stdout: '', stderr: 'error: --data: unknown key "titel" (did you mean "title"?)\n' });
    expect(await fx.requests()).toEqual([]);
  });
});

describe('account checks are attached to operations that exist', () => {
  it('every id in the registry names a write operation of the tables, and its check loads', async () => {
    const ids = Object.keys(ACCOUNT_CHECKS);
    expect(ids.length).toBe(49);
    expect(ids.filter((id) => operationById(id)?.method === undefined || operationById(id)!.method === 'GET')).toEqual([]);
    for (const id of ids) expect(typeof (await ACCOUNT_CHECKS[id]!())).toBe('function');
  });
});

describe('a fixture is checked against the account before its first write', () => {
  it('a good record before the bad one is not created: the account checks of every new record run first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-doors-'));
    const file = join(dir, 'set.yaml');
    writeFileSync(file, `- kind: lead-label\n  name: good\n  spec: { name: Good, color: green }\n- kind: lead\n  name: probe\n  spec:\n    title: Probe\n    person_id: ${personId}\n    label_ids: [${MISSING_LABEL}]\n`);
    const r = await runCli(['apply', '-f', file], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${file}:9 probe.spec.label_ids: ${NO_LABEL}\nhint: Nothing was sent.\n`);
    expect((await fx.requests()).map((x) => `${x.method} ${x.path}`)).toEqual([LABELS]);
  });
});
