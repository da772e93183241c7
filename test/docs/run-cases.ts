// The per-document runs of test/docs/cases.ts: one describe per document with its own sandbox (demo
// seed), its blocks run in order. Split over test files so the documents run on both workers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_FRAME } from '../reliability/helpers.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { shellBlocks } from './blocks.js';
import { type BlockCase, CASES, type CaseContext } from './cases.js';
import { blockEnv, missingTools, runBlock } from './run-block.js';

export function describeDocBlocks(docs: readonly string[]): void {
  for (const doc of docs) {
    describe(`shell blocks of ${doc}`, () => {
      let fx: SandboxFixture;
      beforeAll(async () => {
        fx = await startFixture({ seed: 'demo' });
      });
      afterAll(() => fx?.close());
      for (const c of CASES[doc] ?? []) {
        const missing = missingTools(c.needs ?? []);
        if (missing.length) console.warn(`${doc}: the block "${c.first}" is not run: ${missing.join(', ')} not on PATH`);
        it.skipIf(missing.length > 0)(c.first, async () => runCase(doc, c, fx), 120_000);
      }
    });
  }
}

async function runCase(doc: string, c: BlockCase, fx: SandboxFixture): Promise<void> {
  const block = shellBlocks(doc).find((b) => b.first === c.first && !b.notRun);
  expect(block, `${doc} has no unmarked shell block starting with: ${c.first}`).toBeDefined();
  const account: Record<string, string> = c.account === 'own' ? {} : { CRMCTL_ACCESS_TOKEN: fx.env.CRMCTL_ACCESS_TOKEN!, CRMCTL_API_DOMAIN: fx.env.CRMCTL_API_DOMAIN! };
  const closers: Array<() => Promise<void>> = [];
  const t: CaseContext = { ...blockEnv({ ...account, ...c.env }), fx, onClose: (fn) => closers.push(fn), state: {} };
  try {
    await c.setup?.(t);
    let text = block!.text;
    for (const [from, to] of c.replace?.(t) ?? []) {
      expect(text, `the replaced text "${from}" is in the block`).toContain(from);
      text = text.split(from).join(to);
    }
    const r = await runBlock(text, t, { until: c.until });
    const context = `${doc}:${block!.line}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
    const expected = c.exits ?? [];
    // Every failing command is one the case expects, with its code; every expected one failed.
    for (const f of r.failed) expect(expected.some(([frag, code]) => f.command.includes(frag) && f.code === code), `unexpected exit ${f.code}: ${f.command}\n${context}`).toBe(true);
    for (const [frag, code] of expected) expect(r.failed.some((f) => f.command.includes(frag) && f.code === code), `expected exit ${code} from "${frag}"\n${context}`).toBe(true);
    // A block stopped by `until` ends by its interrupt; otherwise the last command's status is bash's.
    if (!expected.length && !c.until) expect(r.code, context).toBe(0);
    expect(r.stderr, context).not.toMatch(STACK_FRAME);
    await c.check?.(r, t);
  } finally {
    for (const close of closers) await close();
  }
}
