// Issue 28.6: the CSV formula guard round-trips. An export puts an apostrophe before a cell a
// spreadsheet would run (= + - @ tab CR first); the import must take exactly that apostrophe off again,
// and a value that really starts with an apostrophe must come back with it. Checked through the CLI:
// export → import (into an emptied account) → export gives the same file, and the records left behind
// hold the original text.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formulaText, inertFormula } from '../../src/output/cells.js';
import { runCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { demoSandboxPerTest, workDir } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => (fx = f));
const dir = workDir();
const run = (args: string[]) => runCli(args, { env: fx.env });

/** Each formula lead character, a real leading apostrophe before one, and look-alikes that need no guard. */
const VALUES: Array<{ text: string; cell: string }> = [
  { text: '=HYPERLINK("http://evil.example","x")', cell: `"'=HYPERLINK(""http://evil.example"",""x"")"` },
  { text: '+1 555 0100', cell: "'+1 555 0100" },
  { text: '-20% Q4 promo', cell: "'-20% Q4 promo" },
  { text: '@SUM(A1:A9)', cell: "'@SUM(A1:A9)" },
  { text: '\tTabbed first', cell: "'\tTabbed first" },
  { text: '\rCR first', cell: `"'\rCR first"` },
  // A real apostrophe before a formula character: one more apostrophe, taken off on import.
  { text: "'-20% Q4 promo", cell: "''-20% Q4 promo" },
  { text: "''=1+2", cell: "'''=1+2" },
  // Nothing a spreadsheet would run: written as it is, read as it is.
  { text: "'plain quote", cell: "'plain quote" },
  { text: '-5', cell: '-5' },
  { text: "'-5", cell: "'-5" },
  { text: 'plain text', cell: 'plain text' },
];

describe('the formula guard is reversible', () => {
  it('formulaText undoes inertFormula for every lead character and leading apostrophes', () => {
    for (const { text } of VALUES) expect(formulaText(inertFormula(text))).toBe(text);
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) {
      for (const quotes of ['', "'", "''"]) {
        const text = `${quotes}${lead}x`;
        expect(inertFormula(text)).toBe(`'${text}`);
        expect(formulaText(inertFormula(text))).toBe(text);
      }
    }
  });

  it('export → import → export: the same CSV, and the records hold the original text', async () => {
    await fx.reset('empty');
    // Names are trimmed by the schemas, descriptions are not: tab and CR lead only descriptions.
    const seed = VALUES.map((v, i) => ({ name: /^[\t\r]/.test(v.text) ? `RT ${i}` : v.text, description: v.text, code: `RT-${i}` }));
    const seedFile = join(dir, 'seed.ndjson');
    writeFileSync(seedFile, `${seed.map((r) => JSON.stringify(r)).join('\n')}\n`);
    // One row at a time: concurrent creates land in any order, and an export lists products by id.
    const first = await run(['import', 'products', '--file', seedFile, '--concurrency', '1']);
    expect(first.code, first.stderr).toBe(0);

    const exportFile = join(dir, 'products.csv');
    const a = await run(['export', 'products', '--format', 'csv', '--columns', 'code,name,description', '--out', exportFile]);
    expect(a.code, a.stderr).toBe(0);
    const csv = readFileSync(exportFile, 'utf8');
    // What the spreadsheet sees: each cell as designed.
    for (const [i, v] of VALUES.entries()) expect(csv).toContain(`RT-${i},${seed[i]!.name === v.text ? v.cell : `RT ${i}`},${v.cell}\r\n`);

    await fx.reset('empty');
    const imported = await run(['import', 'products', '--file', exportFile, '--concurrency', '1']);
    expect(imported.code, imported.stderr).toBe(0);
    const products = await fx.collection<{ code: string; name: string; description: string }>('products');
    for (const [i, v] of VALUES.entries()) {
      const p = products.find((x) => x.code === `RT-${i}`)!;
      expect({ name: p.name, description: p.description }).toEqual({ name: seed[i]!.name, description: v.text });
    }

    const again = join(dir, 'again.csv');
    const b = await run(['export', 'products', '--format', 'csv', '--columns', 'code,name,description', '--out', again]);
    expect(b.code, b.stderr).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(csv);
  });

  it('a file written by hand reads the way an export would have been read', async () => {
    const file = join(dir, 'by-hand.csv');
    writeFileSync(file, "name,description\r\n'-Widget,'=1+2\r\n'Quoted,'hello\r\n");
    const r = await run(['import', 'products', '--file', file]);
    expect(r.code, r.stderr).toBe(0);
    const products = await fx.collection<{ name: string; description: string }>('products');
    expect(products.find((p) => p.name === '-Widget')?.description).toBe('=1+2');
    // An apostrophe before text a spreadsheet would not run is the value's own.
    expect(products.find((p) => p.name === "'Quoted")?.description).toBe("'hello");
  });
});
