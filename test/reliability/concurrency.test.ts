// Concurrency: 8 crmctl processes started together. The token case is also covered by
// test/auth/refresh.test.ts ("8 processes with an expired token..."); this one re-measures it for
// docs/reliability.md (wall time, token calls) and checks the config directory is left clean.
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCrmctl as spawnCli } from './helpers.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { refreshAccepted, startAuthFixture } from '../auth/helpers.js';

const N = 8;

describe(`${N} processes with an expired access token`, () => {
  it('all succeed; one refresh between them; config valid, 0600, with a refresh token the sandbox accepts', async () => {
    const fx = await startAuthFixture();
    try {
      const t = await fx.mint({ lifetimeSec: 1 });
      await fx.seedProfile('default', t);
      await fx.expire('default', t);
      const t0 = Date.now();
      const results = await Promise.all(Array.from({ length: N }, () => spawnCli(['lead-labels', 'list', '--json', '--debug'], { env: fx.env, timeoutMs: 60_000 })));
      const wallMs = Date.now() - t0;
      for (const r of results) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).not.toContain(t.refresh_token);
        expect(JSON.parse(r.stdout).map((l: { name: string }) => l.name)).toEqual(expect.arrayContaining(['Hot', 'Cold', 'Warm']));
      }
      const file = join(fx.configDir, 'config.json');
      const profile = JSON.parse(readFileSync(file, 'utf8')).profiles.default;
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(profile.refreshToken).not.toBe(t.refresh_token);
      const log = await fx.requests();
      const tokenCalls = log.filter((r) => r.path.startsWith('/oauth/token')).length;
      const listCalls = log.filter((r) => r.path === '/api/v1/leadLabels');
      expect(tokenCalls).toBe(1);
      // Every list call used the fresh token: no 401 was needed.
      expect(listCalls.map((r) => r.status)).toEqual(Array(N).fill(200));
      // Checked last: this check itself is a refresh at the sandbox.
      expect(await refreshAccepted(fx.sandbox.url, fx.sandbox.clientId, fx.sandbox.clientSecret, profile.refreshToken)).toBe(true);
      // Nothing half-written or stale left beside the config (temp files, a held lock).
      expect(readdirSync(fx.configDir).filter((f) => f !== 'config.json' && !f.endsWith('.lock'))).toEqual([]);
      process.stdout.write(`concurrency (token refresh): ${JSON.stringify({ processes: N, exit0: results.filter((r) => r.code === 0).length, token_calls: tokenCalls, wall_ms: wallMs })}\n`);
    } finally {
      await fx.close();
    }
  }, 90_000);
});

describe(`${N} parallel crmctl apply runs on different state files`, () => {
  let fx: SandboxFixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => fx.close());

  const fixture = (i: number) => `
- kind: lead-label
  name: label
  spec: { name: "Parallel label ${i}", color: purple }
- kind: lead
  name: lead
  spec:
    title: Parallel lead ${i}
    organization_id: ${(i % 6) + 1}
    label_ids: ["\${ref:label.id}"]
- kind: note
  name: note
  spec:
    content: "<p>Parallel note ${i}</p>"
    lead_id: \${ref:lead.id}
`;

  it('all succeed; each state file is whole and names exactly the records created; a re-run sends no write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-rel-apply-'));
    const runs = Array.from({ length: N }, (_, i) => {
      const file = join(dir, `f${i}.yaml`);
      writeFileSync(file, fixture(i));
      return { i, file, state: join(dir, `state-${i}.json`) };
    });
    const apply = () => Promise.all(runs.map((r) => spawnCli(['apply', '-f', r.file, '--state', r.state], { env: fx.env, timeoutMs: 60_000 })));
    const t0 = Date.now();
    const first = await apply();
    const wallMs = Date.now() - t0;
    for (const r of first) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Done: 3 created');
    }
    const labels = await fx.collection<{ id: string; name: string }>('leadLabels');
    const leads = await fx.collection<{ id: string; title: string; label_ids: string[] }>('leads');
    const notes = await fx.collection<{ id: number; content: string; lead_id: string }>('notes');
    for (const r of runs) {
      const state = JSON.parse(readFileSync(r.state, 'utf8'));
      expect(Object.keys(state.records).sort()).toEqual(['label', 'lead', 'note']);
      const myLabels = labels.filter((l) => l.name === `Parallel label ${r.i}`);
      const myLeads = leads.filter((l) => l.title === `Parallel lead ${r.i}`);
      const myNotes = notes.filter((n) => n.content === `<p>Parallel note ${r.i}</p>`);
      expect([myLabels.length, myLeads.length, myNotes.length]).toEqual([1, 1, 1]);
      expect(state.records.label.id).toBe(myLabels[0]!.id);
      expect(state.records.lead.id).toBe(myLeads[0]!.id);
      expect(state.records.note.id).toBe(myNotes[0]!.id);
      // References resolved within the run: the lead carries its own run's label, the note its lead.
      expect(myLeads[0]!.label_ids).toEqual([myLabels[0]!.id]);
      expect(myNotes[0]!.lead_id).toBe(myLeads[0]!.id);
    }
    await fx.clearRequests();
    const second = await apply();
    for (const r of second) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('3 unchanged');
    }
    expect((await fx.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
    process.stdout.write(`concurrency (apply): ${JSON.stringify({ processes: N, exit0: first.filter((r) => r.code === 0).length, records_each: 3, wall_ms: wallMs })}\n`);
  }, 120_000);
});
