// Every live operation of the vendor's current documents is reachable by a named command. Reads the
// index files in ../shared (skipped, loudly, when they are absent; CI fails without them).
import { expect, it } from 'vitest';
import { ALL_OPERATIONS } from '../../src/api/operations/index.js';
import { AREAS } from '../../src/commands/areas.js';
import { describeWithShared, NEEDS_VENDOR_INDEX } from '../helpers/interface-spec.js';
import { vendorIndex } from '../helpers/openapi.js';

/** `/api/v1/persons/{id}` and `/v1/persons/{personId}` are the same operation. */
const norm = (method: string, path: string) => `${method} ${path.replace(/^\/(api\/)?(v[12])\//, '/$2/').replace(/\{[^}]+\}/g, '{}')}`;

/**
 * Live vendor operations no named command reaches, each with its reason. Keep it short: an entry
 * here is a gap a generic OpenAPI client would not have.
 */
const EXCEPTIONS: Record<string, string> = {
  // The OAuth endpoints are the login itself (`crmctl auth login`), not account operations.
  'GET /v1/oauth/authorize': 'used by crmctl auth login (browser consent page)',
  'POST /v1/oauth/token': 'used by crmctl auth login and token refresh',
};

/** Operations with a registered command (generated, switched or hand-written). */
async function reached(): Promise<Set<string>> {
  const cmds = (await Promise.all(AREAS.map(async (a) => (await a.load()).commands))).flat();
  return new Set(cmds.flatMap((c) => (c.operations ?? []).map((o) => norm(o.method, o.path))));
}

describeWithShared(NEEDS_VENDOR_INDEX, 'vendor coverage: every live operation has a named command', () => {
  const live = vendorIndex().filter((e) => !e.deprecated);

  it(`reaches every live operation of index-v1.txt and index-v2.txt except the listed ones`, async () => {
    const have = await reached();
    const keys = [...new Set(live.map((e) => norm(e.method, e.path)))];
    const missing = keys.filter((k) => !have.has(k) && !(k in EXCEPTIONS));
    expect(missing).toEqual([]);
    // An exception that has a command now must leave the list.
    expect(Object.keys(EXCEPTIONS).filter((k) => have.has(k))).toEqual([]);
    process.stdout.write(`vendor coverage: ${keys.length - keys.filter((k) => !have.has(k)).length} of ${keys.length} live operations reached; ${Object.keys(EXCEPTIONS).length} exceptions\n`);
  });

  it('the exceptions name only live vendor operations (no stale entries)', () => {
    const keys = new Set(live.map((e) => norm(e.method, e.path)));
    expect(Object.keys(EXCEPTIONS).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('every table row is served under a command (no operation only reachable through crmctl api)', async () => {
    const have = await reached();
    expect(ALL_OPERATIONS.filter((o) => !have.has(norm(o.method, o.path))).map((o) => o.id)).toEqual([]);
  });
});
