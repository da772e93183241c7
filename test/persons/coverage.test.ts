import { describe, expect, it } from 'vitest';
import { personOperations } from '../../src/api/operations/persons.js';
import { area } from '../../src/commands/persons/index.js';
import { personsArea } from '../../src/sandbox/handlers/persons.js';

// The Persons table of the interface, written out by hand (method, path, cost as stated).
const INTERFACE: Array<[string, string, number | null]> = [
  ['GET', '/api/v2/persons', 10], ['GET', '/api/v2/persons/{id}', 1], ['GET', '/api/v1/persons/{id}/changelog', 20],
  ['GET', '/api/v1/persons/{id}/files', 20], ['GET', '/v1/persons/{id}/files', null], ['GET', '/api/v1/persons/{id}/flow', 40],
  ['GET', '/api/v2/persons/{id}/followers', 10], ['GET', '/api/v2/persons/{id}/followers/changelog', 10],
  ['GET', '/api/v1/persons/{id}/mailMessages', 20], ['GET', '/api/v1/persons/{id}/permittedUsers', 10],
  ['GET', '/api/v2/persons/{id}/picture', 1], ['GET', '/api/v1/persons/{id}/products', 20], ['GET', '/api/v2/persons/search', null],
  ['GET', '/v1/persons', null], ['GET', '/v1/persons/collection', null], ['GET', '/v1/persons/{id}', null],
  ['GET', '/v1/persons/{id}/activities', null], ['GET', '/v1/persons/{id}/deals', null], ['GET', '/v1/persons/{id}/followers', null],
];

describe('persons coverage', () => {
  it('has one table row per interface operation, with the stated cost', () => {
    expect(personOperations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(INTERFACE.map(([m, p]) => `${m} ${p}`).sort());
    for (const [m, p, cost] of INTERFACE) {
      const op = personOperations.find((o) => o.method === m && o.path === p)!;
      if (cost !== null) expect(op.cost, p).toBe(cost);
    }
  });

  it('reaches every operation from the command its row names, with an example', () => {
    for (const op of personOperations) {
      const cmd = area.commands.filter((c) => c.path.join(' ') === op.cli.command.join(' '));
      // A hand-written command replaces the generated one; exactly one must claim the operation.
      const claiming = cmd.filter((c) => c.operations?.includes(op));
      expect(claiming.length, op.id).toBeGreaterThanOrEqual(1);
      expect(op.cli.examples.some((e) => e.startsWith(`crmctl ${op.cli.command.join(' ')}`)), op.id).toBe(true);
    }
    for (const c of area.commands) expect(c.examples.length, c.path.join(' ')).toBeGreaterThan(0);
  });

  it('the sandbox serves every operation (the /v1 files form through the /api/v1 route alias)', () => {
    const served = new Set(personsArea.routes.map((r) => `${r.method} ${r.path.replace(/^\/api\/v1\//, '/v1/')}`));
    for (const [m, p] of INTERFACE) expect(served.has(`${m} ${p.replace(/^\/api\/v1\//, '/v1/')}`), p).toBe(true);
  });

  it('scopes: contacts for reads, recents for changelog and flow, mail for messages, search adds search:read', () => {
    const scopes = (id: string) => personOperations.find((o) => o.id === id)!.scopes;
    expect(scopes('persons.list')).toEqual(['contacts:read', 'contacts:full']);
    expect(scopes('persons.changelog')).toEqual(['recents:read']);
    expect(scopes('persons.flow')).toEqual(['recents:read']);
    expect(scopes('persons.mailMessages')).toEqual(['mail:read', 'mail:full']);
    expect(scopes('persons.search')).toEqual(['contacts:read', 'contacts:full', 'search:read']);
  });
});
