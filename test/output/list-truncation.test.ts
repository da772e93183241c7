// A list that stops while the service says more remain says so on stderr (never on stdout), for both
// pagination styles: v1 offset (leads list, more_items_in_collection) and v2 cursor (deals list,
// next_cursor). With --all, or when nothing remains, there is no notice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchList } from '../../src/commands/list-notice.js';
import { runCli, runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ensureBuilt } from '../ux/built.js';

let fx: SandboxFixture;
let leadCount = 0;
let dealCount = 0;

/** The bin users run, piped (stdout is not a terminal). */
const bin = (args: string[]) => runBin(args, { env: fx.env });

const notice = (shown: number) => `note: showing the first ${shown} records; the service has more (use --all for every record, or --limit <n>).\n`;

async function bulk(collection: 'leads' | 'deals', count: number): Promise<void> {
  const res = await fetch(`${fx.sandbox.url}/__sandbox/bulk`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ collection, count }) });
  if (res.status !== 200) throw new Error(`bulk insert failed: ${await res.text()}`);
}

beforeAll(async () => {
  ensureBuilt();
  fx = await startFixture();
  await bulk('leads', 620);
  await bulk('deals', 130);
  leadCount = (await fx.collection<{ is_archived?: boolean }>('leads')).filter((l) => !l.is_archived).length;
  // The plain lists leave archived records out (the demo seed has an archived lead and an archived deal).
  dealCount = (await fx.collection<{ status?: string; is_archived?: boolean }>('deals')).filter((d) => d.status !== 'deleted' && !d.is_archived).length;
}, 120_000);
afterAll(async () => fx?.close());

describe('a list that stops with more left says so on stderr', () => {
  it('v1 offset list (leads): 100 records on stdout, the notice on stderr', async () => {
    const r = await bin(['leads', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(100);
    expect(r.stderr).toBe(notice(100));
  });

  it('v2 cursor list (deals): 100 records on stdout, the notice on stderr', async () => {
    const r = await bin(['deals', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(100);
    expect(r.stderr).toBe(notice(100));
  });

  it('piped TSV (the default off a terminal) keeps stdout to the records', async () => {
    const r = await bin(['deals', 'list']);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(100);
    expect(r.stdout).not.toContain('note:');
    expect(r.stderr).toBe(notice(100));
  });

  it('--limit (the user chose how many): no notice, below or above one page', async () => {
    const few = await bin(['deals', 'list', '--limit', '5', '--json']);
    expect(JSON.parse(few.stdout)).toHaveLength(5);
    expect(few.stderr).toBe('');
    const many = await bin(['leads', 'list', '--limit', '501', '--json']);
    expect(JSON.parse(many.stdout)).toHaveLength(501);
    expect(many.stderr).toBe('');
  });

  it('on a terminal (a table) too', async () => {
    const r = await runCli(['leads', 'list'], { tty: true, env: fx.env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('note:');
    expect(r.stderr.endsWith(notice(100))).toBe(true);
  });
});

describe('no notice when nothing is left out', () => {
  it('--all: every record, stderr empty (v1 and v2)', async () => {
    const leads = await bin(['leads', 'list', '--all', '--json']);
    expect(JSON.parse(leads.stdout)).toHaveLength(leadCount);
    expect(leads.stderr).toBe('');
    const deals = await bin(['deals', 'list', '--all', '--json']);
    expect(JSON.parse(deals.stdout)).toHaveLength(dealCount);
    expect(deals.stderr).toBe('');
  });

  it('a list shorter than a page: stderr empty', async () => {
    const r = await bin(['lead-labels', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    expect(r.stderr).toBe('');
  });
});

describe('the notice text', () => {
  async function drain(watch: ReturnType<typeof watchList>, pages: Array<{ records: number; next?: number; total?: number }>, stopAfter?: number) {
    async function* source() {
      let emitted = 0;
      for (const p of pages) {
        for (let i = 0; i < p.records; i++) {
          if (stopAfter !== undefined && emitted >= stopAfter) return;
          emitted++;
          yield i;
        }
        watch.onPage({ next: p.next, count: p.records, total: p.total });
      }
    }
    for await (const _ of watch.count(source())) void _;
  }

  it('names the total when the service gives one', async () => {
    const w = watchList({});
    await drain(w, [{ records: 100, next: 100, total: 1204 }]);
    expect(w.notice()).toBe('note: showing 100 of 1204 records; the service has more (use --all for every record, or --limit <n>).');
  });

  it('a page left part-way still had records: more remain even without a next page', async () => {
    const w = watchList({});
    await drain(w, [{ records: 100 }], 60);
    expect(w.notice()).toBe('note: showing the first 60 records; the service has more (use --all for every record, or --limit <n>).');
  });

  it('says nothing after the last page or with --all', async () => {
    const last = watchList({});
    await drain(last, [{ records: 40 }]);
    expect(last.notice()).toBeUndefined();
    const all = watchList({ all: true });
    await drain(all, [{ records: 100, next: 100 }]);
    expect(all.notice()).toBeUndefined();
  });
});
