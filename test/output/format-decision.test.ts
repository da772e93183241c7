// One decision of output format (src/output/format.ts) for every producer of stdout: records, reports,
// raw answers (api), exports, a saved file (files download) and auth status, each run through the CLI
// on a terminal, in a pipe, with --json and with --output ndjson; the format of what reached stdout is
// asserted exactly. Events (webhooks listen, a long-running server) are checked at the decision itself.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatFor, type OutputKind } from '../../src/output/format.js';
import type { OutputFormat } from '../../src/core/globals.js';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
let dir: string;
let fileId: number;

beforeAll(async () => {
  fx = await startFixture();
  await fx.reset('demo');
  dir = mkdtempSync(join(tmpdir(), 'crmctl-format-'));
  writeFileSync(join(dir, 'labels.ndjson'), '{"name":"Hot","color":"red"}\n{"name":"Cold","color":"blue"}\n');
  writeFileSync(join(dir, 'doc.txt'), 'hello\n');
  const up = await runCli(['files', 'upload', '--file', join(dir, 'doc.txt'), '--deal-id', '1', '--json'], { env: fx.env });
  expect(up.code, up.stderr).toBe(0);
  fileId = (JSON.parse(up.stdout) as { id: number }).id;
}, 120_000);
afterAll(async () => fx?.close());

type Seen = 'table' | 'record' | 'tsv' | 'json' | 'ndjson' | 'text' | 'none';

/** What stdout holds, by its shape. */
function shapeOf(out: string): Seen {
  if (out === '') return 'none';
  if (/[┌│└╭─]/.test(out)) return 'table';
  const lines = out.trimEnd().split('\n');
  const parses = (s: string) => {
    try {
      JSON.parse(s);
      return true;
    } catch {
      return false;
    }
  };
  if (/^[[{]/.test(out) && parses(out) && lines.length > 1) return 'json';
  if (lines.every((l) => /^[[{]/.test(l) && parses(l))) return 'ndjson';
  if (out.includes('\t')) return 'tsv';
  // One record on a terminal: `key: value` lines, the values in one column.
  const keyed = lines.map((l) => /^(\S[^:]*:)(?:( +)\S.*)?$/.exec(l));
  const at = keyed.filter((m) => m?.[2]).map((m) => m![1]!.length + m![2]!.length);
  if (keyed.every(Boolean) && at.length && at.every((n) => n === at[0])) return 'record';
  return 'text';
}

const situations = [
  { name: 'terminal', tty: true, flags: [] as string[] },
  { name: 'pipe', tty: false, flags: [] as string[] },
  { name: '--json', tty: false, flags: ['--json'] },
  { name: '--output ndjson', tty: true, flags: ['--output', 'ndjson'] },
] as const;

const producers: { name: string; args: () => string[]; expected: [Seen, Seen, Seen, Seen] }[] = [
  { name: 'records (leads list)', args: () => ['leads', 'list', '--limit', '2'], expected: ['table', 'tsv', 'json', 'ndjson'] },
  // A report is the human text in a pipe too (a log a CI job keeps).
  { name: 'report (import --dry-run)', args: () => ['import', 'lead-labels', '--file', join(dir, 'labels.ndjson'), '--dry-run'], expected: ['text', 'text', 'json', 'ndjson'] },
  // The service's answer as it came: JSON everywhere, on one line with ndjson.
  { name: 'raw (api)', args: () => ['api', '/api/v1/users/me'], expected: ['json', 'json', 'json', 'ndjson'] },
  // An export writes ndjson unless told otherwise, terminal or not.
  { name: 'export (to stdout)', args: () => ['export', 'lead-labels'], expected: ['ndjson', 'ndjson', 'json', 'ndjson'] },
  // A saved file: stderr says where on a terminal; a pipe gets the path.
  { name: 'saved (files download)', args: () => ['files', 'download', String(fileId), '--out', join(dir, `got-${Math.random()}.txt`)], expected: ['none', 'text', 'json', 'ndjson'] },
  // A status is field/value pairs: `key: value` lines on a terminal, field<TAB>value lines in a pipe.
  { name: 'auth status', args: () => ['auth', 'status'], expected: ['record', 'tsv', 'json', 'ndjson'] },
];

describe('every producer of stdout takes its format from the one decision', () => {
  for (const p of producers) {
    for (const [i, s] of situations.entries()) {
      it(`${p.name}, ${s.name} → ${p.expected[i]}`, async () => {
        const r = await runCli([...p.args(), ...s.flags], { env: fx.env, tty: s.tty });
        expect(r.code, r.stderr).toBe(0);
        expect(shapeOf(r.stdout)).toBe(p.expected[i]);
      });
    }
  }

  it('a saved file with a format asked for prints it on a terminal too (before: nothing with tsv, csv or table)', async () => {
    const target = join(dir, 'asked.txt');
    const r = await runCli(['files', 'download', String(fileId), '--out', target, '--output', 'tsv'], { env: fx.env, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${fileId}\t${target}\t6\n`);
    const t = await runCli(['files', 'download', String(fileId), '--out', target, '--force', '--output', 'table'], { env: fx.env, tty: true });
    expect(t.stdout).toBe(`${target}\n`);
  });
});

describe('the decision itself, per kind', () => {
  const ctx = (output: OutputFormat | undefined, tty: boolean) => ({ globals: { output } as never, io: { isStdoutTTY: tty } as never });
  const flags: (OutputFormat | undefined)[] = [undefined, 'table', 'tsv', 'csv', 'json', 'ndjson'];
  // Rows: kind; columns: no flag on a terminal, no flag in a pipe, then each --output on a terminal.
  const table: [OutputKind, string[]][] = [
    ['records', ['table', 'tsv', 'table', 'tsv', 'csv', 'json', 'ndjson']],
    ['report', ['text', 'text', 'text', 'tsv', 'csv', 'json', 'ndjson']],
    ['events', ['text', 'ndjson', 'text', 'refused', 'refused', 'ndjson', 'ndjson']],
    ['raw', ['json', 'json', 'table', 'tsv', 'csv', 'json', 'ndjson']],
    ['export', ['ndjson', 'ndjson', 'refused', 'refused', 'csv', 'json', 'ndjson']],
    ['saved', ['none', 'text', 'text', 'tsv', 'csv', 'json', 'ndjson']],
  ];
  const decide = (kind: OutputKind, output: OutputFormat | undefined, tty: boolean) => {
    try {
      return formatFor(ctx(output, tty), kind);
    } catch {
      return 'refused';
    }
  };
  for (const [kind, want] of table) {
    it(kind, () => {
      const got = [decide(kind, undefined, true), decide(kind, undefined, false), ...flags.slice(1).map((f) => decide(kind, f, true))];
      expect(got).toEqual(want);
    });
  }

  it('refusals name the flag and what to use instead', () => {
    expect(() => formatFor(ctx('csv', false), 'events')).toThrow('--output csv: events have no fixed columns; use json or ndjson (the default when piped)');
    expect(() => formatFor(ctx('tsv', false), 'export')).toThrow('--output tsv: export writes ndjson, json or csv (use --format)');
  });

  it('a report may default to another format in a pipe (sandbox start: one JSON line); an export follows --format, then --out', () => {
    expect(formatFor(ctx(undefined, false), 'report', { piped: 'ndjson' })).toBe('ndjson');
    expect(formatFor(ctx(undefined, true), 'report', { piped: 'ndjson' })).toBe('text');
    expect(formatFor(ctx('json', false), 'export', { format: 'csv' })).toBe('csv');
    expect(formatFor(ctx(undefined, false), 'export', { out: 'x.CSV' })).toBe('csv');
    expect(formatFor(ctx(undefined, false), 'export', { out: 'x.json' })).toBe('json');
    expect(formatFor(ctx(undefined, false), 'export', { out: 'x.jsonl' })).toBe('ndjson');
  });
});
