// Issue 28.2: an import whose rows link by name (organization, person, owner, stage), killed with
// SIGKILL while creates are in flight, then --resume. The rows the kill left in "sending" must be looked
// up with the values that were sent (names resolved to ids), not with the file's row: before the fix
// the look-up compared stand-in ids, found nothing, and created the in-flight rows a second time.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { control, demoSandboxPerTest, journalEntries, killWhen, ndjson, workDir } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => {
  fx = f;
});

type Rec = Record<string, any>;
const ROWS = 24;

/** Linked records by name, each with an id other than 1 (1 is the stand-in id rows are checked with). */
async function names() {
  const pick = async (collection: string, ok: (r: Rec) => boolean = () => true) => (await fx.collection<Rec>(collection)).find((r) => r.id !== 1 && ok(r))!;
  const org = await pick('organizations');
  const person = await pick('persons');
  const user = await pick('users', (u) => u.active_flag !== false);
  const stage = await pick('stages');
  const pipeline = (await fx.collection<Rec>('pipelines')).find((p) => p.id === stage.pipeline_id)!;
  return { org, person, user, stage, pipeline };
}

const KINDS: Record<string, { collection: string; title: string; header: (n: Awaited<ReturnType<typeof names>>) => [string, string] }> = {
  persons: { collection: 'persons', title: 'name', header: (n) => ['name,organization', `,${csv(n.org.name)}`] },
  deals: { collection: 'deals', title: 'title', header: (n) => ['title,person,organization,owner,stage,pipeline', `,${csv(n.person.name)},${csv(n.org.name)},${n.user.email},${csv(n.stage.name)},${csv(n.pipeline.name)}`] },
  activities: { collection: 'activities', title: 'subject', header: (n) => ['subject,person,organization', `,${csv(n.person.name)},${csv(n.org.name)}`] },
  leads: { collection: 'leads', title: 'title', header: (n) => ['title,person,organization,owner', `,${csv(n.person.name)},${csv(n.org.name)},${n.user.email}`] },
};
const csv = (s: string) => (/[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

describe('kill -9 mid-import with linked names, then --resume: 0 duplicates, 0 lost (issue 28.2)', () => {
  for (const [kind, k] of Object.entries(KINDS)) {
    it(`${kind}: every row once, the results file matches the account`, async () => {
      const n = await names();
      const [head, tail] = k.header(n);
      const tag = `Named ${kind} ${Date.now()}`;
      const f = join(workDir(), `${kind}.csv`);
      writeFileSync(f, `${head}\n${Array.from({ length: ROWS }, (_, i) => `${tag} ${i + 1}${tail}`).join('\n')}\n`);
      const journal = `${f}.import-state.json`;
      // Slow answers keep creates in flight; the kill comes inside the sixth create, after its write and
      // before its answer: that row (and those still in flight, which land after the kill) exist in the
      // account while the journal has them "sending".
      await control(fx, 'PUT', 'faults', { latencyMs: 250, seed: 1 });
      let creates = 0;
      await killWhen(['import', kind, '--file', f, '--concurrency', '4'], fx.env, (kill) => fx.sandbox.state.events.on((e) => {
        if (e.action === 'create' && String((e.data as Rec | null)?.[k.title] ?? '').startsWith(`${tag} `) && ++creates === 6) kill();
      }));
      // The creates still in the latency wait land now, with nobody to hear the answer.
      await new Promise((r) => setTimeout(r, 600));
      await control(fx, 'PUT', 'faults', {});
      const inFlight = (() => {
        const e = journalEntries(journal);
        const done = new Set(e.filter((x) => x.status !== 'sending').map((x) => x.key));
        return e.filter((x) => x.status === 'sending' && !done.has(x.key));
      })();
      expect(inFlight.length).toBeGreaterThan(0);
      // What was sent carries the resolved ids, not names.
      expect(Object.values(inFlight[0]!.sent).some((v) => v === n.org.id || v === n.person.id)).toBe(true);
      // At least one of them landed: a resend would duplicate it (what the look-up must prevent).
      const landed = (await fx.collection<Rec>(k.collection)).filter((x) => inFlight.some((e) => e.sent[k.title] === x[k.title]));
      expect(landed.length).toBeGreaterThan(0);

      const r = await runCli(['import', kind, '--file', f, '--resume'], { env: fx.env });
      expect(r.code, r.stderr).toBe(0);
      const mine = (await fx.collection<Rec>(k.collection)).filter((x) => String(x[k.title]).startsWith(`${tag} `));
      const titles = mine.map((x) => x[k.title] as string);
      expect({ duplicates: titles.length - new Set(titles).size, lost: ROWS - new Set(titles).size }).toEqual({ duplicates: 0, lost: 0 });
      const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
      expect(results.map((x) => x.line)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 2));
      for (const x of results) expect(mine.find((m) => m.id === x.id)?.[k.title]).toBe(`${tag} ${x.line - 1}`);
    }, 90_000);
  }
});
