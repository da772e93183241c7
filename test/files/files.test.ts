// Files and call logs through the CLI against the sandbox: uploads from a path and from stdin
// (multipart), downloads streamed to a path, a directory or stdout and checked by hash, remote
// Google Drive files, the hostile cases of paths (missing, a directory, over the limit, a target that
// cannot be written) and call logs with their recordings.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { tools } from '../persons/helpers.js';
import { runCli } from '../helpers/cli.js';

let fx: SandboxFixture;
const { run, json } = tools(() => fx);
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const dir = () => mkdtempSync(join(tmpdir(), 'crmctl-files-'));
const sent = async () => (await fx.requests()).map((q) => `${q.method} ${q.path} ${q.status}`);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('files: upload and download', () => {
  it('a 3 MB binary goes up as multipart linked to a deal and comes back identical (sha256), to a path and into a directory', async () => {
    const d = dir();
    const bytes = randomBytes(3 * 1024 * 1024);
    writeFileSync(join(d, 'contract.bin'), bytes);
    const up = await json(['files', 'upload', '--file', join(d, 'contract.bin'), '--deal-id', '1']);
    expect(up).toMatchObject({ name: 'contract.bin', file_size: bytes.length, deal_id: 1, deal_name: 'Acme annual licence' });
    // After users/me (the upload is recorded as a run of this account).
    const post = (await fx.requests())[1]!;
    expect(post).toMatchObject({ method: 'POST', path: '/api/v1/files', status: 200 });
    expect((post.body as { multipart_bytes: number }).multipart_bytes).toBeGreaterThan(bytes.length);
    expect((await json(['deals', 'files', '1'])).map((f: { id: number }) => f.id)).toContain(up.id);

    const out = join(d, 'copy.bin');
    const r = await run(['files', 'download', String(up.id), '--out', out]);
    expect(r).toMatchObject({ code: 0, stderr: '', stdout: `${out}\n` });
    expect(sha(readFileSync(out))).toBe(sha(bytes));
    const into = `${join(d, 'into')}/`;
    writeFileSync(join(d, 'marker'), '');
    await import('node:fs').then((fs) => fs.mkdirSync(into));
    const r2 = await run(['files', 'download', String(up.id), '--out', into]);
    expect(r2.code, r2.stderr).toBe(0);
    expect(sha(readFileSync(join(into, 'contract.bin')))).toBe(sha(bytes));
    // Nothing but the finished files: no partial file left beside them.
    expect(readdirSync(into)).toEqual(['contract.bin']);
  });

  it('stdin uploads (staged, size known) and a download to stdout streams the bytes unchanged', async () => {
    const text = 'line one\nline two: ünïcode ✓\n'.repeat(2000);
    const r = await runCli(['files', 'upload', '--file', '-', '--person-id', '2', '--json'], { env: fx.env, stdin: text });
    expect(r.code, r.stderr).toBe(0);
    const up = JSON.parse(r.stdout);
    expect(up).toMatchObject({ name: 'stdin', person_id: 2, file_size: Buffer.byteLength(text) });
    const down = await run(['files', 'download', String(up.id), '--out', '-']);
    expect(down.code).toBe(0);
    expect(sha(down.stdout)).toBe(sha(text));
  });

  it('an existing target is kept unless --force; a failed download leaves nothing behind', async () => {
    const d = dir();
    const up = await json(['files', 'upload', '--file', writeTemp(d, 'a.txt', 'new content'), '--org-id', '1']);
    const target = writeTemp(d, 'keep.txt', 'old content');
    await fx.clearRequests();
    const r = await run(['files', 'download', String(up.id), '--out', target]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --out: ${target} exists; pass --force to replace it\n`);
    expect(await fx.requests()).toEqual([]);
    expect(readFileSync(target, 'utf8')).toBe('old content');
    expect((await run(['files', 'download', String(up.id), '--out', target, '--force'])).code).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('new content');
    const missing = join(d, 'missing.txt');
    const nf = await run(['files', 'download', '999', '--out', missing]);
    expect(nf.code).toBe(5);
    expect(existsSync(missing)).toBe(false);
    expect(readdirSync(d).sort()).toEqual(['a.txt', 'keep.txt']);
  });

  it('update, delete, and Google Drive files (created or linked, no bytes)', async () => {
    const up = await json(['files', 'upload', '--file', writeTemp(dir(), 'n.txt', 'x'), '--deal-id', '2']);
    expect(await json(['files', 'update', String(up.id), '--name', 'Renamed.txt', '--description', 'signed'])).toMatchObject({ name: 'Renamed.txt', description: 'signed' });
    const doc = await json(['files', 'create-remote', '--file-type', 'gdoc', '--title', 'Proposal', '--item-type', 'deal', '--item-id', '1', '--remote-location', 'googledrive']);
    expect(doc).toMatchObject({ name: 'Proposal', deal_id: 1, remote_location: 'googledrive', file_size: 0 });
    const linked = await json(['files', 'link-remote', '--item-type', 'person', '--item-id', '1', '--remote-id', 'abc123', '--remote-location', 'googledrive']);
    expect(linked).toMatchObject({ person_id: 1, remote_id: 'abc123' });
    await json(['files', 'delete', String(up.id), '--yes']);
    expect((await run(['files', 'get', String(up.id)])).code).toBe(5);
    // Each link is its own field of the upload: a file goes on a deal and its person at once.
    const two = await json(['files', 'upload', '--file', writeTemp(dir(), 'm.txt', 'y'), '--deal-id', '1', '--person-id', '1']);
    expect(two).toMatchObject({ deal_id: 1, person_id: 1, org_id: null });
    const missing = await run(['files', 'upload', '--file', writeTemp(dir(), 'k.txt', 'z'), '--deal-id', '1', '--person-id', '999']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('person_id: no person with id 999');
  });
});

describe('files: bytes kept with --data', () => {
  it('an uploaded file comes back identical from a sandbox restarted on the same data file', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const d = dir();
    const dataFile = join(d, 'state.json');
    const bytes = randomBytes(256 * 1024);
    writeFileSync(join(d, 'scan.pdf'), bytes);
    const first = await startSandbox({ port: 0, dataFile });
    let id: number;
    try {
      const env = { ...fx.env, CRMCTL_API_DOMAIN: first.url, CRMCTL_ACCESS_TOKEN: first.issueToken({}).access_token };
      const up = await runCli(['files', 'upload', '--file', join(d, 'scan.pdf'), '--deal-id', '1', '--json'], { env });
      expect(up.code, up.stderr).toBe(0);
      id = JSON.parse(up.stdout).id;
    } finally {
      await first.close();
    }
    const second = await startSandbox({ port: 0, dataFile });
    try {
      const env = { ...fx.env, CRMCTL_API_DOMAIN: second.url, CRMCTL_ACCESS_TOKEN: second.issueToken({}).access_token };
      const out = join(d, 'back.pdf');
      const r = await runCli(['files', 'download', String(id), '--out', out], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(sha(readFileSync(out))).toBe(sha(bytes));
    } finally {
      await second.close();
    }
  });
});

describe('files: hostile paths (exit 2 naming the path, nothing sent)', () => {
  it('a missing file, a directory, a file over the 50 MB limit, a download into a missing directory', async () => {
    const d = dir();
    const big = join(d, 'big.bin');
    writeFileSync(big, '');
    truncateSync(big, 50 * 1024 * 1024 + 1); // sparse: no 50 MB written to disk
    const cases: Array<[string[], string]> = [
      [['files', 'upload', '--file', join(d, 'nope.pdf')], `--file: no such file ${join(d, 'nope.pdf')}`],
      [['files', 'upload', '--file', d], `--file: ${d} is a directory, not a file`],
      [['files', 'upload', '--file', big], '--file'],
      [['files', 'download', '1', '--out', join(d, 'no', 'such', 'dir', 'x.pdf')], `--out: directory ${join(d, 'no', 'such', 'dir')} does not exist`],
      [['call-logs', 'recording-upload', 'abc', '--file', join(d, 'nope.mp3')], `--file: no such file ${join(d, 'nope.mp3')}`],
      [['files', 'download'], 'missing argument <id>'],
    ];
    for (const [args, message] of cases) {
      await fx.clearRequests();
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(await fx.requests()).toEqual([]);
    }
    const r = await run(['files', 'upload', '--file', big]);
    expect(r.stderr).toMatch(/is 50\.0 MB; the service takes files up to 50\.0 MB/);
  });
});

describe('call logs and recordings', () => {
  it('a call is logged with the rules of the vendor; an audio recording is attached once; delete', async () => {
    const bad = await run(['call-logs', 'create', '--outcome', 'maybe', '--to-phone-number', '+3725551234', '--start-time', '2026-11-20 10:00:00', '--end-time', '2026-11-20 10:12:00']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--outcome');
    expect(await sent()).toEqual([]);
    const call = await json(['call-logs', 'create', '--outcome', 'connected', '--to-phone-number', '+3725551234', '--start-time', '2026-11-20 10:00:00', '--end-time', '2026-11-20 10:12:00', '--deal-id', '1', '--subject', 'Pricing']);
    expect(call).toMatchObject({ outcome: 'connected', deal_id: 1, has_recording: false, user_id: 1 });
    const backwards = await run(['call-logs', 'create', '--outcome', 'busy', '--to-phone-number', '1', '--start-time', '2026-11-20 10:00:00', '--end-time', '2026-11-20 09:00:00']);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toContain('end_time: must not be before start_time');
    const d = dir();
    const notAudio = await run(['call-logs', 'recording-upload', call.id, '--file', writeTemp(d, 'notes.txt', 'hello')]);
    expect(notAudio.code).toBe(2);
    expect(notAudio.stderr).toContain('file: must be an audio file');
    await json(['call-logs', 'recording-upload', call.id, '--file', writeTemp(d, 'call.mp3', randomBytes(2048))]);
    expect((await json(['call-logs', 'get', call.id])).has_recording).toBe(true);
    const again = await run(['call-logs', 'recording-upload', call.id, '--file', join(d, 'call.mp3')]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('the call log already has a recording');
    expect((await json(['call-logs', 'list'])).map((c: { id: string }) => c.id)).toEqual([call.id]);
    await json(['call-logs', 'delete', call.id, '--yes']);
    expect((await run(['call-logs', 'get', call.id])).code).toBe(5);
  });
});

function writeTemp(d: string, name: string, content: string | Buffer): string {
  const p = join(d, name);
  writeFileSync(p, content);
  return p;
}
