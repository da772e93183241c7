// A table row's schemas are built when a command first reads them, not when its area loads: a command
// pays for the operations it runs (crmctl deals list builds the list query, not the 40 other rows).
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../../src/api/operation.js';

describe('defineTable builds schemas on first read', () => {
  const cli = { command: ['things', 'list'], summary: 'List things', examples: ['crmctl things list'] };

  it('defining a table calls no schema thunk; the first read builds once and later reads get the same schema', () => {
    const query = vi.fn(() => z.object({ limit: z.optional(z.int().check(z.gte(1))) }));
    const body = vi.fn(() => z.object({ name: z.string() }));
    const ops = defineTable('things', {
      list: { method: 'GET', path: '/things', cost: 1, scopes: ['a'], pagination: 'none', query, cli },
      create: { method: 'POST', path: '/things', cost: 1, scopes: ['a'], pagination: 'none', body, cli: { ...cli, command: ['things', 'create'] } },
    } satisfies OperationTable);
    expect(query).not.toHaveBeenCalled();
    expect(body).not.toHaveBeenCalled();
    const first = ops.list.query;
    expect(ops.list.query).toBe(first);
    expect(query).toHaveBeenCalledTimes(1);
    expect(body).not.toHaveBeenCalled();
    expect(first.safeParse({ limit: 0 }).success).toBe(false);
  });

  it('a built row looks like a written one: keys, spread copies and frozen', () => {
    const ops = defineTable('things', { get: { method: 'GET', path: '/things/{id}', cost: 1, scopes: ['a'], pagination: 'none', params: () => z.object({ id: z.int() }), cli } } satisfies OperationTable);
    expect(Object.keys(ops.get)).toContain('params');
    expect({ ...ops.get }.params).toBe(ops.get.params);
    expect(Object.isFrozen(ops.get)).toBe(true);
    expect(ops.get.id).toBe('things.get');
  });
});
