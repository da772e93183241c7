import { phaseOps } from '../operations/phases.js';
import { projectOps } from '../operations/projects.js';
import { ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../entry-types.js';
import type { CheckReader } from '../entry-types.js';

interface Phase { id: number; name: string; board_id: number; order_nr: number }

/**
 * order_nr runs from 1 to (phases on the board + 1), counting the other phases of the target
 * board (a phase moved within its board does not count itself). Read before sending.
 */
export async function phasePreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const body = (input.body ?? {}) as { board_id?: number; order_nr?: number };
  if (body.order_nr === undefined) return;
  let board = body.board_id;
  const self = input.params.id as number | undefined;
  if (board === undefined && self !== undefined) board = ((await ctx.read(phaseOps.get, { params: { id: self } })) as Phase).board_id;
  if (board === undefined) return;
  const phases = ((await ctx.read(phaseOps.list, { query: { board_id: board } })) as Phase[] | null) ?? [];
  const others = phases.filter((p) => p.id !== self);
  const max = others.length + 1;
  if (body.order_nr > max) {
    throw new ValidationError([{ field: '--order-nr', rule: `must be between 1 and ${max}: board ${board} has ${others.length} other phase${others.length === 1 ? '' : 's'}` }]);
  }
}

/** A phase that still holds projects (archived ones too) is not deleted; say which ones first. */
export async function deletePreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const id = input.params.id as number;
  const held: number[] = [];
  for (const list of [projectOps.list, projectOps.archived]) {
    for await (const p of ctx.readAll(list, { query: { phase_id: id } }, { limit: 5 })) held.push((p as { id: number }).id);
  }
  if (held.length) {
    throw new ValidationError(
      [{ field: '<id>', rule: `phase ${id} still holds projects (${held.join(', ')}); move them to another phase first` }],
      `crmctl projects update ${held[0]} --phase-id <other-phase>`,
    );
  }
}
