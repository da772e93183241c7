#!/usr/bin/env node
// Large and hostile configuration files (run after `npm run build`). Prints numbers; asserts nothing.
//  1. Reading a generated configuration file of BENCH_CONFIG_MB MB (default 19) of lead labels:
//     record by record (src/apply-engine/parse.ts, what crmctl runs) against the baseline of the
//     same run, the file parsed as one document (what crmctl did before, minus its crash): wall time
//     and peak RSS of each, and their ratios.
//  2. `crmctl plan -f <that file>` against an empty sandbox, end to end (read, check, plan, print).
//  3. A "billion laughs" file and a 50,000-deep file: exit code and time to the refusal.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredNode } from './lib/bulk-measure.mjs';
import { BIN, startSandboxProcess } from './lib/processes.mjs';

const MB = Number(process.env.BENCH_CONFIG_MB ?? 19);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

const dir = mkdtempSync(join(tmpdir(), 'crmctl-bench-config-'));
try {
  // 1. The file: lead labels, as pull writes them.
  const file = join(dir, 'labels.yaml');
  const parts = ['config: labels', 'records:'];
  let size = 30;
  for (let i = 0; size < MB * 1e6; i++) {
    const rec = `  - kind: lead-label\n    name: lead-label-l${i}\n    spec:\n      name: Label ${i}\n      color: green`;
    parts.push(rec);
    size += rec.length + 1;
  }
  writeFileSync(file, `${parts.join('\n')}\n`);
  const records = parts.length - 2;
  console.log(`configuration file: ${fmt(statSync(file).size / 1e6, 1)} MB, ${fmt(records)} lead labels (node ${process.version})`);

  const before = await measuredNode(['--input-type=module', '-e', `
    import { readFileSync } from 'node:fs';
    import { LineCounter, parseDocument } from 'yaml';
    const lc = new LineCounter();
    const doc = parseDocument(readFileSync(${JSON.stringify(file)}, 'utf8'), { lineCounter: lc, uniqueKeys: true, prettyErrors: true });
    const items = doc.contents.get('records', true).items.map((item) => item.toJS(doc));
    if (items.length !== ${records}) process.exit(3);
  `], process.env, ROOT);
  const after = await measuredNode(['--input-type=module', '-e', `
    import { readFixtures } from './dist/apply-engine/parse.js';
    const r = readFixtures([${JSON.stringify(file)}]);
    if (r.records.length !== ${records} || r.issues.length) { console.error(JSON.stringify(r.issues.slice(0, 3))); process.exit(3); }
  `], process.env, ROOT);
  for (const [name, m] of [['one document (before)', before], ['record by record (now)', after]]) {
    if (m.code !== 0) throw new Error(`${name} exited ${m.code}: ${m.stderr.split('\tCommand being timed')[0].slice(-800)}`);
    console.log(`  read as ${name.padEnd(24)} ${fmt(m.seconds, 1).padStart(6)} s (CPU ${fmt(m.cpuSeconds, 1)} s)   peak RSS ${fmt(m.peakRssKb / 1024).padStart(6)} MB`);
  }
  console.log(`  now/before: CPU ${fmt(after.cpuSeconds / before.cpuSeconds, 2)}, wall ${fmt(after.seconds / before.seconds, 2)}, peak RSS ${fmt(after.peakRssKb / before.peakRssKb, 2)}`);

  // 2. End to end against an empty sandbox: every label is a create.
  const env = { ...process.env, CRMCTL_CONFIG_DIR: dir };
  delete env.CRMCTL_PROFILE;
  const sb = await startSandboxProcess(['--port', '0', '--no-profile', '--seed', 'empty'], env);
  try {
    const token = await (await fetch(`${sb.info.url}/__sandbox/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"user_id":1}' })).json();
    const apiEnv = { ...env, CRMCTL_ACCESS_TOKEN: token.data.access_token, CRMCTL_API_DOMAIN: sb.info.url };
    const plan = await measuredNode([BIN, 'plan', '-f', file], apiEnv);
    console.log(`  crmctl plan -f (empty sandbox)   ${fmt(plan.seconds, 1).padStart(6)} s (CPU ${fmt(plan.cpuSeconds, 1)} s)   peak RSS ${fmt(plan.peakRssKb / 1024).padStart(6)} MB   exit ${plan.code} (8: changes)`);
    if (plan.code !== 8) console.log(plan.stderr.split('\tCommand being timed')[0].slice(-800));

    // 3. Hostile files: refused with exit 2 naming the file.
    const laughs = join(dir, 'laughs.yaml');
    const lines = ['config: labels', 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]`);
    lines.push('records:', '  - kind: lead-label', '    name: laughs', '    spec: { name: x, color: green, junk: *a8 }');
    writeFileSync(laughs, `${lines.join('\n')}\n`);
    const deep = join(dir, 'deep.yaml');
    writeFileSync(deep, `config: labels\nrecords:\n  - kind: lead-label\n    name: deep\n    spec: { name: x, color: green, junk: ${'['.repeat(50_000)}${']'.repeat(50_000)} }\n`);
    for (const [name, path] of [['billion laughs', laughs], ['50,000 deep', deep]]) {
      const m = await measuredNode([BIN, 'plan', '-f', path], apiEnv);
      console.log(`  ${name.padEnd(32)} ${fmt(m.seconds, 2).padStart(6)} s   exit ${m.code}: ${m.stderr.split('\n')[0]}`);
    }
  } finally {
    await sb.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
