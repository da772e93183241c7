// Every shell block of README.md and docs/*.md is run by a test (test/docs/cases.ts) or marked as not
// runnable with its reason (`<!-- not run: REASON -->` on the line before the fence; docs/architecture.md,
// "Documentation that runs"). A new block that is neither fails here, naming it.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { documents, ROOT, shellBlocks } from './blocks.js';
import { CASES } from './cases.js';

const blocks = documents().flatMap(shellBlocks);
const where = (b: { doc: string; line: number; first: string }) => `${b.doc}:${b.line} ${b.first}`;

describe('shell blocks of README.md and docs/*.md', () => {
  it('are found (sanity: README has its set-up block, and the guides have many)', () => {
    expect(blocks.some((b) => b.doc === 'README.md' && b.first.startsWith('npm ci && npm run demo'))).toBe(true);
    expect(blocks.length).toBeGreaterThan(25);
  });

  it('each is run by a case of test/docs/cases.ts or marked <!-- not run: REASON -->', () => {
    const claimed = (b: (typeof blocks)[number]) => (CASES[b.doc] ?? []).some((c) => c.first === b.first);
    expect(blocks.filter((b) => !b.notRun && !claimed(b)).map(where)).toEqual([]);
  });

  it('a marked block says why, and is not also run', () => {
    expect(blocks.filter((b) => b.notRun !== undefined && b.notRun.length < 10).map(where)).toEqual([]);
    expect(blocks.filter((b) => b.notRun && (CASES[b.doc] ?? []).some((c) => c.first === b.first)).map(where)).toEqual([]);
  });

  it('each case claims exactly one unmarked block of its document (none is stale)', () => {
    const stale = Object.entries(CASES).flatMap(([doc, cases]) =>
      cases.filter((c) => shellBlocks(doc).filter((b) => !b.notRun && b.first === c.first).length !== 1).map((c) => `${doc}: ${c.first}`),
    );
    expect(stale).toEqual([]);
  });

  // crmctl is not published to a registry under that name: whoever publishes it first there would be
  // installed by such a line. Install from the clone or from a tarball `npm pack` made, as README does.
  it('no document installs crmctl from a registry by name', () => {
    const byName = /\b(npm (install|i|add)( -g| --global)?|npx|pnpm (add|dlx)|yarn (global )?add)\s+crmctl\b(?![./-])/;
    const offenders = documents().flatMap((doc) => readLines(doc).filter((l) => byName.test(l.text)).map((l) => `${doc}:${l.line} ${l.text.trim()}`));
    expect(offenders).toEqual([]);
  });
});

function readLines(doc: string): Array<{ line: number; text: string }> {
  return readFileSync(`${ROOT}${doc}`, 'utf8').split('\n').map((text, i) => ({ line: i + 1, text }));
}
