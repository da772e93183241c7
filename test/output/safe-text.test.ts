// Issue 28.11: whoever can name a record chooses what an admin's terminal receives. A label like
// `ok ESC[2K ESC[1A CR FAKE` printed raw erases the line, moves up and overwrites it; a bidi override
// reorders what follows. Every human-facing output shows such characters as escapes (\x1b, \r, \u202e):
// tables, TSV (and --query -o tsv, which now also guards formulas), the one-record view, text reports,
// notices, prompt choices, webhook event lines and error messages. JSON and NDJSON stay exact.
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { planText } from '../../src/automation/bulk-update-plan.js';
import { summaryLine } from '../../src/commands/webhooks/listen-format.js';
import { renderDocument, reportWriter } from '../../src/output/report.js';
import { safeLines, safeText } from '../../src/output/safe-text.js';
import { createContext } from '../../src/runtime/create-context.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { runWithPrompts } from '../ux/helpers.js';

const ESC = '\u001b';
const HOSTILE = `ok ${ESC}[2K${ESC}[1A\rFAKE`;
const SHOWN = 'ok \\x1b[2K\\x1b[1A\\rFAKE';
/** Nothing a terminal acts on: no C0 but tab (TSV's separator) and line feed, no DEL, no C1, no bidi controls. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('safeText and safeLines', () => {
  it('show C0, DEL, C1, ESC, CR and the bidi embeddings, overrides and isolates as escapes', () => {
    expect(safeText(HOSTILE)).toBe(SHOWN);
    expect(safeText('a\tb\nc\u0000d\u007fe\u009bf\u0085')).toBe('a\\tb\\nc\\x00d\\x7fe\\x9bf\\x85');
    expect(safeText('evil\u202efdp.exe \u202a\u202b\u202c\u202d \u2066\u2067\u2068\u2069')).toBe('evil\\u202efdp.exe \\u202a\\u202b\\u202c\\u202d \\u2066\\u2067\\u2068\\u2069');
    // Text people write stays as it is: accents, emoji, right-to-left letters, the zero-width joiner.
    expect(safeText('Zoë Ünal — 👩‍💻 שלום')).toBe('Zoë Ünal — 👩‍💻 שלום');
  });

  it('safeLines keeps line feeds and tabs (a message of several lines), CRLF as LF, and shows the rest', () => {
    expect(safeLines(`line one\r\nline\ttwo\n${HOSTILE}`)).toBe(`line one\nline\ttwo\n${SHOWN}`);
    expect(safeLines('lone\rCR')).toBe('lone\\rCR');
  });
});

describe('record text on every human-facing output', () => {
  let fx: SandboxFixture;
  let leadId: string;
  const run = (args: string[], opts: { tty?: boolean } = {}) => runCli(args, { env: { ...fx.env, NO_COLOR: '1' }, tty: opts.tty, columns: 200 });

  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => fx.close());
  beforeEach(async () => {
    await fx.reset('demo');
    const label = await run(['lead-labels', 'create', '--name', `Hot\u202eedoc`, '--color', 'red', '--json']);
    expect(label.code, label.stderr).toBe(0);
    const lead = await run(['leads', 'create', '--title', HOSTILE, '--organization-id', '1', '--label-ids', JSON.parse(label.stdout).id, '--json']);
    expect(lead.code, lead.stderr).toBe(0);
    leadId = JSON.parse(lead.stdout).id;
  });

  it('a table on a terminal shows the escapes, in the cell and in a label name', async () => {
    const r = await run(['leads', 'list', '--fields', 'title,labels'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).not.toContain('\t');
    expect(r.stdout).toMatch(/│ ok \\x1b\[2K\\x1b\[1A\\rFAKE +│ Hot\\u202eedoc +│\n/);
  });

  it('TSV shows them too (tab and newline were escaped already); --query -o tsv alike, with formulas guarded', async () => {
    const tsv = await run(['leads', 'list', '--fields', 'id,title']);
    expect(tsv.stdout).not.toMatch(RAW);
    expect(tsv.stdout).toContain(`${leadId}\t${SHOWN}\n`);
    const q = await run(['leads', 'list', '--query', `[?id=='${leadId}'].[id, title]`, '-o', 'tsv']);
    expect(q.stdout).toBe(`${leadId}\t${SHOWN}\n`);
    // A formula in --query's text is guarded as in every TSV (it used to skip the guard).
    const f = await run(['leads', 'create', '--title', '=HYPERLINK("http://evil.example")', '--organization-id', '1', '--json']);
    const id = JSON.parse(f.stdout).id;
    const title = await run(['leads', 'get', id, '--query', 'title', '-o', 'tsv']);
    expect(title.stdout).toBe(`'=HYPERLINK("http://evil.example")\n`);
  });

  it('one record (key: value) shows them; JSON and NDJSON keep the exact text', async () => {
    const view = await run(['leads', 'get', leadId], { tty: true });
    expect(view.stdout).not.toMatch(RAW);
    expect(view.stdout).toMatch(new RegExp(`^title: +${SHOWN.replace(/[\\[\]]/g, '\\$&')}$`, 'm'));
    const json = await run(['leads', 'get', leadId, '--json']);
    expect(JSON.parse(json.stdout).title).toBe(HOSTILE);
    const nd = await run(['leads', 'list', '--output', 'ndjson']);
    expect(nd.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l).title)).toContain(HOSTILE);
  });

  it('an error message quoting a value shows the escapes (exit 2), ours and commander\'s', async () => {
    const r = await run(['leads', 'list', '--fields', `ti${ESC}[2Ktle`]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toMatch(/^error: --fields: unknown field ti\\x1b\[2Ktle\. Valid fields: id, title,/);
    const c = await run(['import', 'leads', '--file', 'x.csv', '--format', `${ESC}[2Kcsv`]);
    expect(c.code).toBe(2);
    expect(c.stderr).toBe("error: option '--format <format>' argument '\\x1b[2Kcsv' is invalid. Allowed choices are ndjson, json, csv.\n");
  });

  it('a prompt lists the account\'s names with the escapes', async () => {
    const p = await run(['persons', 'create', '--name', `Mallory ${ESC}[2J${ESC}[H`, '--json']);
    expect(p.code, p.stderr).toBe(0);
    let names: string[] = [];
    await runWithPrompts(['leads', 'create'], [], {}, fx.env, [
      'Prompted lead',
      'person',
      (q) => {
        names = q.choices!.map((c) => c.name);
        return q.choices!.find((c) => c.name.startsWith('Mallory'))!.value;
      },
    ]);
    expect(names).toContain('Mallory \\x1b[2J\\x1b[H');
    for (const n of names) expect(n).not.toMatch(RAW);
  });
});

describe('notices, text reports and event lines', () => {
  /** A context on a pretend terminal whose stdout and stderr are captured. */
  function captured() {
    let out = '';
    let err = '';
    const stdout = new PassThrough().on('data', (d) => (out += d));
    const stderr = new PassThrough().on('data', (d) => (err += d));
    const io = { stdin: Readable.from([]), stdout, stderr, isStdinTTY: true, isStdoutTTY: true, isStderrTTY: true, columns: 100 };
    const ctx = createContext(io, cleanEnv({ NO_COLOR: '1' }), { profile: undefined, output: undefined, fields: undefined, color: false, debug: true, yes: false, noInput: false });
    return { ctx, out: () => out, err: () => err };
  }

  it('info, warn and debug lines quote record text safely, keeping their line breaks', () => {
    const c = captured();
    c.ctx.info(`updated ${HOSTILE}`);
    c.ctx.warn(`skipped ${HOSTILE}\nsecond line`);
    c.ctx.debug(`read ${HOSTILE}`);
    expect(c.err()).toBe(`updated ${SHOWN}\nwarning: skipped ${SHOWN}\nsecond line\nread ${SHOWN}\n`);
  });

  it('a report\'s lines and summary (apply, destroy, import: plan lines quote names) show the escapes', async () => {
    const c = captured();
    const w = reportWriter<{ name: string }>(c.ctx, { columns: ['name'], line: (r) => `+ create lead ${r.name}` });
    await w.row({ name: HOSTILE });
    await w.end({ text: `1 to create: ${HOSTILE}`, json: {} });
    await renderDocument(c.ctx, { json: { name: HOSTILE }, text: `plan for ${HOSTILE}\n2 rows` });
    expect(c.out()).toBe(`+ create lead ${SHOWN}\n1 to create: ${SHOWN}\nplan for ${SHOWN}\n2 rows\n`);
  });

  it('a bulk update plan quotes the values it replaces and the value it sets safely', () => {
    const update = { id: 'deals_update', method: 'PATCH', path: '/api/v2/deals/{id}', cost: 5 } as unknown as Parameters<typeof planText>[0]['update'];
    const text = planText({
      area: 'deals', selection: '--status open', selected: 2, to_update: 2, unchanged: 0, not_found: 0, done_earlier: 0,
      fields: [{ field: 'title', to: `new${ESC}[1A`, changes: 2, already: 0, from: new Map([[HOSTILE, 2]]) }] as unknown as Parameters<typeof planText>[0]['fields'],
      update, read_cost: 10, daily: undefined, service_now: 0,
    });
    expect(text).not.toMatch(RAW);
    expect(text).toContain(`title → new\\x1b[1A: 2 changes (from ${SHOWN}: 2)`);
  });

  it('webhooks listen: an event line shows what a sender put in the payload safely', () => {
    const line = summaryLine({ action: 'create', object: `deal${ESC}[2K`, id: `7\r`, time: 't', version: '2.0', webhookId: '1', attempt: 1 });
    expect(line).not.toMatch(RAW);
    expect(line).toContain('deal\\x1b[2K');
    expect(line).toContain('7\\r');
  });
});
