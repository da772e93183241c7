import { expect, it } from 'vitest';
import { ALL_OPERATIONS } from '../../src/api/operations/index.js';
import { AREAS } from '../../src/commands/areas.js';
import { describeWithShared, interfaceOperations, NEEDS_INTERFACE } from '../helpers/interface-spec.js';

/** Map "METHOD path" → the crmctl commands that call it, from the registered command tree. */
async function reachable(): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  for (const entry of AREAS) {
    for (const spec of (await entry.load()).commands) {
      for (const op of spec.operations ?? []) {
        const key = `${op.method} ${op.path}`;
        map.set(key, [...(map.get(key) ?? []), `crmctl ${spec.path.join(' ')}`]);
      }
    }
  }
  return map;
}

describeWithShared(NEEDS_INTERFACE, 'every operation of the service interface is reachable through a named command', () => {
  it('parses the interface tables', () => {
    // The interface lists 126 operations in its endpoint tables (OAuth is checked below).
    expect(interfaceOperations().length).toBe(126);
  });

  it('maps each interface operation to an operation row and a command', async () => {
    const map = await reachable();
    const missing = interfaceOperations()
      .filter((o) => !map.has(`${o.method} ${o.path}`))
      .map((o) => `${o.area}: ${o.method} ${o.path}`);
    expect(missing).toEqual([]);
  });

  it('each interface operation costs what the interface states', () => {
    const rows = new Map(ALL_OPERATIONS.map((o) => [`${o.method} ${o.path}`, o]));
    const wrong = interfaceOperations()
      .filter((o) => o.cost !== undefined && rows.get(`${o.method} ${o.path}`)?.cost !== o.cost)
      .map((o) => `${o.method} ${o.path}: interface ${o.cost}, table ${rows.get(`${o.method} ${o.path}`)?.cost}`);
    expect(wrong).toEqual([]);
  });

  it('the OAuth operations are reachable: authorize + token exchange (auth login) and refresh (auth refresh)', async () => {
    const auth = (await AREAS.find((a) => a.name === 'auth')!.load()).commands.map((c) => c.path.join(' '));
    expect(auth).toEqual(expect.arrayContaining(['auth login', 'auth refresh', 'auth status', 'auth logout', 'auth token']));
  });

});
