// Rules every operation table and the command tree built from it must keep. They read the tables
// and the registered commands, so a new area is checked without a new test.
import { describe, expect, it } from 'vitest';
import { ALL_OPERATIONS, operationById } from '../../src/api/operations/index.js';
import { AREAS } from '../../src/commands/areas.js';
import { operationFields } from '../../src/input/operation-input.js';
import type { CommandSpec } from '../../src/core/command.js';
import { areas as sandboxAreas } from '../../src/sandbox/handlers/index.js';

async function allCommands(): Promise<CommandSpec[]> {
  return (await Promise.all(AREAS.map(async (a) => (await a.load()).commands))).flat();
}

describe('operation tables and the command tree', () => {
  it('operation ids are unique; every row has examples that run its own command', () => {
    const ids = ALL_OPERATIONS.map((o) => o.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const bad = ALL_OPERATIONS.filter((o) => !o.cli.examples.length || !o.cli.examples.every((e) => e.startsWith(`crmctl ${o.cli.command.join(' ')}`))).map((o) => o.id);
    expect(bad).toEqual([]);
  });

  it('every operation is called by a registered command (generated, switched or hand-written)', async () => {
    const called = new Set((await allCommands()).flatMap((c) => (c.operations ?? []).map((o) => o.id)));
    expect(ALL_OPERATIONS.filter((o) => !called.has(o.id)).map((o) => o.id)).toEqual([]);
  });

  it('no two commands share a path, and every command has an example', async () => {
    const cmds = await allCommands();
    const paths = cmds.map((c) => c.path.join(' '));
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
    expect(cmds.filter((c) => !c.examples.length).map((c) => c.path.join(' '))).toEqual([]);
  });

  it('every DELETE asks for confirmation (needs --yes off a terminal)', () => {
    expect(ALL_OPERATIONS.filter((o) => o.method === 'DELETE' && !o.cli.confirm).map((o) => o.id)).toEqual([]);
  });

  it('every prompt source names a GET operation of the tables', () => {
    const broken: string[] = [];
    for (const op of ALL_OPERATIONS) {
      for (const [key, src] of Object.entries(op.cli.prompts ?? {})) {
        if (!src.from) continue;
        const target = operationById(src.from);
        if (target?.method !== 'GET') broken.push(`${op.id} ${key} → ${src.from}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every optional input a table asks at a terminal is an input of its operation', () => {
    const broken = ALL_OPERATIONS.flatMap((op) => (op.cli.ask ?? []).filter((key) => !operationFields(op).fields.some((f) => f.key === key && !f.required)).map((key) => `${op.id} ${key}`));
    expect(broken).toEqual([]);
  });

  it('a command path with several operations has one default form and a distinct switch for each other', () => {
    const byPath = new Map<string, typeof ALL_OPERATIONS>();
    for (const op of ALL_OPERATIONS.filter((o) => !o.cli.handWritten)) byPath.set(op.cli.command.join(' '), [...(byPath.get(op.cli.command.join(' ')) ?? []), op]);
    for (const [path, ops] of byPath) {
      expect(ops.filter((o) => !o.cli.switch).length, path).toBe(1);
      const switches = ops.map((o) => o.cli.switch).filter(Boolean);
      expect(new Set(switches).size, path).toBe(switches.length);
    }
  });

  it('the sandbox serves every operation of the tables (same method and path; /api/v1 and /v1 are one)', () => {
    const norm = (p: string) => p.replace(/^\/api\/v1\//, '/v1/').replace(/\{[^}]+\}/g, '{}');
    const served = new Set(sandboxAreas.flatMap((a) => a.routes.map((r) => `${r.method} ${norm(r.path)}`)));
    expect(ALL_OPERATIONS.filter((o) => !served.has(`${o.method} ${norm(o.path)}`)).map((o) => `${o.id}: ${o.method} ${o.path}`)).toEqual([]);
  });
});
