// Hostile input files: a 50 MB --data file, a 200,000-character note, bytes that are not UTF-8 (for
// --data @file, --content-file and import --file), and formula cells in CSV output. Each bad input:
// exit 2, the flag named, no stack trace, and the sandbox's request log shows nothing was written.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { workDir } from '../automation/helpers.js';
import { STACK_FRAME } from './helpers.js';

let fx: SandboxFixture;
const dir = workDir();
const LEAD = '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f';
const file = (name: string, data: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
};
/** "café" in Latin-1 (0xE9 alone is not UTF-8), then a stray 0xFF. */
const LATIN1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0xff]);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

const writes = async () => (await fx.requests()).filter((r) => r.method !== 'GET');

async function refused(argv: string[], names: string, extra?: RegExp) {
  const r = await runCli(argv, { env: fx.env });
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
  expect(r.stderr).toContain(names);
  if (extra) expect(r.stderr).toMatch(extra);
  expect(r.stderr).not.toMatch(STACK_FRAME);
  return r;
}

describe('huge input files', () => {
  it('a 50 MB --data file is refused before it is read whole or sent', async () => {
    const big = file('big.json', `{"title":"${'x'.repeat(50 * 1024 * 1024)}","person_id":1}`);
    await refused(['leads', 'create', '--data', `@${big}`], '--data', /50\.0 MB.*at most 5 MB/);
    expect(await fx.requests()).toEqual([]);
  });

  it('a 200,000-character note via --content-file is refused (notes hold about 100,000)', async () => {
    const note = file('note.html', `<p>${'a'.repeat(200_000)}</p>`);
    await refused(['notes', 'create', '--content-file', note, '--lead-id', LEAD], '--content-file', /200007 characters.*at most 100000/);
    expect(await fx.requests()).toEqual([]);
  });

  it('the same note through stdin (--content-file -) is refused too', async () => {
    const r = await runCli(['notes', 'create', '--content-file', '-', '--lead-id', LEAD], { env: fx.env, stdin: `<p>${'b'.repeat(200_000)}</p>` });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--content-file: stdin has 200007 characters');
    expect(await fx.requests()).toEqual([]);
  });
});

describe('input that is not UTF-8', () => {
  it('--data @file with Latin-1 bytes: refused naming --data and the line, not sent as U+FFFD', async () => {
    const f = file('latin1.json', Buffer.concat([Buffer.from('{\n"title": "'), LATIN1, Buffer.from('",\n"person_id": 1}\n')]));
    await refused(['leads', 'create', '--data', `@${f}`], '--data', /is not valid UTF-8 \(line 2\)/);
    expect(await fx.requests()).toEqual([]);
  });

  it('notes create --content-file with Latin-1 bytes', async () => {
    const f = file('latin1.html', Buffer.concat([Buffer.from('<p>'), LATIN1, Buffer.from('</p>')]));
    await refused(['notes', 'create', '--content-file', f, '--person-id', '1'], '--content-file', /not valid UTF-8 \(line 1\)/);
    expect(await fx.requests()).toEqual([]);
  });

  it.each([
    ['ndjson', (bad: Buffer) => Buffer.concat([Buffer.from('{"title":"Fine","person_id":1}\n{"title":"'), bad, Buffer.from('","person_id":1}\n')])],
    ['csv', (bad: Buffer) => Buffer.concat([Buffer.from('title,person_id\nFine,1\n'), bad, Buffer.from(',1\n')])],
    ['json', (bad: Buffer) => Buffer.concat([Buffer.from('[{"title":"Fine","person_id":1},\n{"title":"'), bad, Buffer.from('","person_id":1}]\n')])],
  ] as const)('import leads --file (%s) with Latin-1 bytes: refused, no row created', async (ext, make) => {
    const f = file(`latin1.${ext}`, make(LATIN1));
    const before = (await fx.collection('leads')).length;
    // The bad row is line 2 of the ndjson and json files, line 3 of the CSV (after its header).
    await refused(['import', 'leads', '--file', f], '--file', new RegExp(`not valid UTF-8 \\(line ${ext === 'csv' ? 3 : 2}\\)`));
    expect(await writes()).toEqual([]);
    expect((await fx.collection('leads')).length).toBe(before);
  });

  it('valid UTF-8 (accents, emoji) is sent unchanged', async () => {
    const f = file('utf8.json', JSON.stringify({ title: 'Café Zoë 🚀', person_id: 1 }));
    const r = await runCli(['leads', 'create', '--data', `@${f}`, '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).title).toBe('Café Zoë 🚀');
  });
});

describe('CSV injection: formula cells are neutralised in every CSV output', () => {
  const TITLES = ['=HYPERLINK("http://evil.example","x")', '+1+2', '-2+3', '@SUM(1,2)', '-5'];
  // RFC 4180 quoting after a leading apostrophe; a plain negative number stays a number.
  const EXPECTED = [`"'=HYPERLINK(""http://evil.example"",""x"")"`, `'+1+2`, `'-2+3`, `"'@SUM(1,2)"`, '-5'];

  it.each([
    ['export leads --output csv', ['export', 'leads', '--output', 'csv']],
    ['export leads --format csv', ['export', 'leads', '--format', 'csv']],
    ['leads list --output csv', ['leads', 'list', '--output', 'csv', '--fields', 'id,title', '--limit', '500']],
  ])('%s', async (_name, argv) => {
    const ids: string[] = [];
    for (const title of TITLES) {
      const c = await runCli(['leads', 'create', '--title', title, '--organization-id', '1', '--json'], { env: fx.env });
      expect(c.code, c.stderr).toBe(0);
      ids.push(JSON.parse(c.stdout).id);
    }
    const r = await runCli(argv, { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\r\n');
    expect(lines[0]).toMatch(/^id,title(,|$)/);
    const escapeRe = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const [i, id] of ids.entries()) {
      const line = lines.find((l) => l.startsWith(`${id},`));
      expect(line, id).toBeDefined();
      // The title is the second cell: the neutralised text, then a comma or the end of the line.
      expect(line!).toMatch(new RegExp(`^${id},${escapeRe(EXPECTED[i]!)}(,|$)`));
    }
  });
});

describe('JSON from stdin, a file or the flag itself: one guard for every JSON flag', () => {
  it.each([
    ['inline', ['--custom-fields', '{not json'], undefined, '--custom-fields: must be JSON: '],
    ['stdin', ['--custom-fields', '-'], '{not json', '--custom-fields: must be JSON (from stdin): '],
    ['a file', ['--custom-fields', '@FILE'], '{not json', '--custom-fields: must be JSON (from FILE): '],
  ])('projects create --custom-fields from %s with bad JSON: exit 2 naming the flag and where it came from, nothing sent', async (_where, flags, content, message) => {
    const path = file('bad-custom.json', content ?? '');
    const argv = ['projects', 'create', '--title', 'X', '--board-id', '1', '--phase-id', '1', ...flags.map((f) => f.replace('FILE', path))];
    const r = await runCli(argv, { env: fx.env, stdin: flags.includes('-') ? content : undefined });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr).toContain(message.replace('FILE', path));
    expect(r.stderr).not.toContain('unexpected failure');
    expect(await fx.requests()).toEqual([]);
  });

  it('a directory given as a JSON file is named as such (exit 2)', async () => {
    await refused(['leads', 'create', '--data', `@${dir}`], `--data: ${dir} is a directory, not a file`);
    expect(await fx.requests()).toEqual([]);
  });
});
