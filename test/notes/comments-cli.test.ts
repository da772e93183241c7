// crmctl notes comments: list, get, add (also from stdin), update, delete.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { seedUuid } from '../../src/sandbox/seed/base.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { cliFor, deletedOf, lastRequest } from './helpers.js';

let fx: SandboxFixture;
let cli: ReturnType<typeof cliFor>;
const A = seedUuid('note-comment:a');
const B = seedUuid('note-comment:b');
const C = seedUuid('note-comment:c');

beforeAll(async () => {
  fx = await startFixture();
  cli = cliFor(fx);
});
afterAll(() => fx.close());
beforeEach(async () => {
  await fx.reset();
  await fx.clearRequests();
});

test('list shows the comments of one note, oldest first', async () => {
  const r = await cli(['notes', 'comments', 'list', '1', '--output', 'tsv', '--fields', 'id,user_id,content']);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(`${A}\t2\tQuote drafted, waiting for the second-site headcount.\n${B}\t1\tHeadcount is 45; sending today.\n`);
  expect(await lastRequest(fx)).toMatchObject({ path: '/api/v1/notes/1/comments', query: { limit: '100' } });
});

test('get by UUID; a comment of another note is not found (exit 5)', async () => {
  const r = await cli(['notes', 'comments', 'get', '3', C, '--json']);
  expect(JSON.parse(r.stdout)).toMatchObject({ id: C, uuid: C, object_id: '3', object_type: 'note', content: 'Countersigned copy is in Files.' });
  const wrong = await cli(['notes', 'comments', 'get', '1', C]);
  expect(wrong.code).toBe(5);
  expect(wrong.stderr).toContain('Comment not found');
});

test('a comment id that is not a UUID is refused before sending', async () => {
  const r = await cli(['notes', 'comments', 'get', '1', '42']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('<commentId>: must be a UUID');
  expect(await fx.requests()).toEqual([]);
});

test('add from stdin, update, delete: state follows, HTML is sanitized', async () => {
  let r = await cli(['notes', 'comments', 'add', '3', '--content-file', '-', '--json'], { stdin: '<i>Filed</i><iframe src="https://evil.example"></iframe>' });
  expect(r.code).toBe(0);
  const added = JSON.parse(r.stdout);
  expect(added).toMatchObject({ content: '<i>Filed</i>', object_id: '3', user_id: 1 });
  expect(await lastRequest(fx)).toMatchObject({ method: 'POST', path: '/api/v1/notes/3/comments', body: { content: '<i>Filed</i><iframe src="https://evil.example"></iframe>' } });

  r = await cli(['notes', 'comments', 'update', '3', added.id, '--content', 'Filed in Files.', '--json']);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).content).toBe('Filed in Files.');

  r = await cli(['notes', 'comments', 'delete', '3', added.id, '--yes', '--json']);
  expect(r.stdout).toBe('true\n');
  expect((await deletedOf(fx, 'noteComments')).map((c) => c.id)).toEqual([added.id]);
  const list = await cli(['notes', 'comments', 'list', '3', '--output', 'tsv', '--fields', 'id']);
  expect(list.stdout).toBe(`${C}\n`);
});

test('add and update need content', async () => {
  let r = await cli(['notes', 'comments', 'add', '3']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--content: is required');
  r = await cli(['notes', 'comments', 'update', '3', C, '--content', '']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--content: must not be empty');
  expect(await fx.requests()).toEqual([]);
});
