import { phaseOps } from '../operations/phases.js';
import { projectOps } from '../operations/projects.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../entry-types.js';
import type { CheckReader } from '../entry-types.js';

interface Phase { id: number; board_id: number; name: string }

/** A phase by id, or undefined when the service says it does not exist. */
export async function readPhase(ctx: CheckReader, id: number): Promise<Phase | undefined> {
  try {
    return (await ctx.read(phaseOps.get, { params: { id } })) as Phase;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/**
 * The phase of a project must belong to its board (interface, Project). Checked with reads before
 * a create or update is sent: the phase exists, and its board is the one given (or, on update
 * without --board-id, the project's current board).
 */
export async function projectPreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const body = (input.body ?? {}) as Record<string, unknown>;
  if (typeof body.phase_id !== 'number') return;
  const phase = await readPhase(ctx, body.phase_id);
  if (!phase) throw new ValidationError([{ field: '--phase-id', rule: `no such phase ${body.phase_id} (see crmctl phases list --board-id N)` }]);
  let board = typeof body.board_id === 'number' ? body.board_id : undefined;
  let boardFlag = '--board-id';
  if (board === undefined && input.params.id !== undefined) {
    board = ((await ctx.read(projectOps.get, { params: { id: input.params.id as number } })) as { board_id?: number }).board_id;
    boardFlag = "the project's board";
  }
  if (board !== undefined && phase.board_id !== board) {
    throw new ValidationError([
      { field: '--phase-id', rule: `phase ${phase.id} (${phase.name}) belongs to board ${phase.board_id}, not to ${boardFlag === '--board-id' ? `--board-id ${board}` : `${boardFlag} ${board}`}` },
    ]);
  }
}
