import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { id } from '../schemas.js';
import { createRow, deleteRow, getRow, updateRow } from './rows.js';

const READ = ['projects:read', 'projects:full'];
const WRITE = ['projects:full'];

export const PHASE_FIELDS = ['id', 'name', 'board_id', 'order_nr', 'add_time', 'update_time'];
const COLUMNS = ['id', 'name', 'board_id', 'order_nr'];

/**
 * order_nr: from 1 to (phases on the board + 1). The upper bound depends on the board, so the
 * commands check it with a read of the board's phases before sending (commands/phases/checks.ts).
 */
const orderNr = once(() => z.int().check(z.gte(1)));

const HELP = {
  name: 'phase name',
  board_id: 'project board',
  order_nr: 'position on the board, 1 to (phases on the board + 1); the others are renumbered (default: last)',
};

/** The cli hints both v1 forms of a phase row share (reached with `--v1`). */
const V1_FORM = { columns: ['id', 'name', 'add_time', 'update_time'], fields: PHASE_FIELDS, switch: '--v1' };

export const phaseOps = defineTable('phases', {
  list: getRow('/api/v2/phases', 10, READ, {
    command: ['phases', 'list'],
    summary: 'List the active phases of a board, in board order',
    examples: ['crmctl phases list --board-id 1'],
    columns: COLUMNS,
    fields: PHASE_FIELDS,
    help: { board_id: 'board whose phases to list' },
  }, { beta: true, query: () => z.object({ board_id: id() }) }),
  get: getRow('/api/v2/phases/{id}', 10, READ, { command: ['phases', 'get'], summary: 'Show one project phase', examples: ['crmctl phases get 2 --json'], columns: PHASE_FIELDS, fields: PHASE_FIELDS }, { beta: true }),
  create: createRow('/api/v2/phases', 5, WRITE, () => z.object({ name: z.string().check(z.trim()).check(z.minLength(1)), board_id: id(), order_nr: z.optional(orderNr()) }), {
    prompts: { board_id: { from: 'boards.list' } },
    command: ['phases', 'create'],
    summary: 'Add a phase to a board (at --order-nr, else last)',
    examples: ['crmctl phases create --name "Quality review" --board-id 1 --order-nr 2'],
    columns: COLUMNS,
    fields: PHASE_FIELDS,
    help: HELP,
  }, { beta: true }),
  update: updateRow('PATCH', '/api/v2/phases/{id}', 5, WRITE, {
    prompts: { board_id: { from: 'boards.list' } },
    command: ['phases', 'update'],
    summary: 'Rename, reorder or move a phase to another board (both boards are renumbered)',
    examples: ['crmctl phases update 4 --order-nr 1', 'crmctl phases update 4 --board-id 2 --order-nr 3'],
    columns: COLUMNS,
    fields: PHASE_FIELDS,
    help: { ...HELP, board_id: 'move the phase (and its projects) to this board' },
  }, { beta: true, body: () => z.object({ name: z.optional(z.string().check(z.trim()).check(z.minLength(1))), board_id: z.optional(id()), order_nr: z.optional(orderNr()) }) }),
  delete: deleteRow('/api/v2/phases/{id}', 3, WRITE, {
    command: ['phases', 'delete'],
    summary: 'Delete an empty phase (the remaining phases are renumbered)',
    description: 'A phase that still holds projects (archived ones included) cannot be deleted: move them first with `crmctl projects update ID --phase-id N`.',
    examples: ['crmctl phases delete 4 --yes'],
    columns: ['id'],
  }, { beta: true }),
  listV1: getRow('/api/v1/projects/phases', 20, READ, {
    command: ['phases', 'list'],
    summary: 'List the phases of a board (v1 form)',
    examples: ['crmctl phases list --board-id 1'],
    ...V1_FORM,
  }, { query: () => z.object({ board_id: id() }) }),
  getV1: getRow('/api/v1/projects/phases/{id}', 2, ['projects:read'], {
    command: ['phases', 'get'],
    summary: 'Show one phase (v1 form)',
    examples: ['crmctl phases get 1'],
    ...V1_FORM,
  }),
} satisfies OperationTable);
