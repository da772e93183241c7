/** The operations of each kind of record that undo, dedupe's keeping and a single write use, found once in the tables. */
import type { Operation } from '../api/operation.js';
import { ALL_OPERATIONS } from '../api/operations/index.js';

/** The operations of one kind of record an undo uses. */
export interface RecordOps {
  area: string;
  get?: Operation;
  update?: Operation;
  delete?: Operation;
  create?: Operation;
  list?: Operation;
}

/** The get, update, delete and create of an area, as its commands call them (the first row at a path: v2 before v1). */
export function recordOps(area: string): RecordOps {
  const known = OPS.get(area);
  if (known) return known;
  const at = (verb: string) => ALL_OPERATIONS.find((op) => op.cli.command.length === 2 && op.cli.command[0] === area && op.cli.command[1] === verb && !op.cli.switch);
  const ops = { area, get: at('get'), update: at('update'), delete: at('delete'), create: at('create'), list: at('list') };
  OPS.set(area, ops);
  return ops;
}
const OPS = new Map<string, RecordOps>();
