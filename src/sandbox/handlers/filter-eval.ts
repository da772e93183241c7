// Evaluates a saved filter (filter_id on list operations). Filters are stored in
// a simplified form: a flat list of conditions that must all hold.
import { invalid } from '../http/errors.js';
import { compareValues } from '../http/sort.js';
import type { Filter } from '../store/records.js';
import type { SandboxState } from '../store/state.js';

type Row = Record<string, unknown>;

function holds(row: Row, c: Filter['conditions'][number]): boolean {
  const v = row[c.field];
  const cmp = () => compareValues(v, c.value);
  switch (c.operator) {
    case '=': return v === c.value || String(v) === String(c.value);
    case '!=': return String(v) !== String(c.value);
    case '<': return cmp() < 0;
    case '>': return cmp() > 0;
    case '<=': return cmp() <= 0;
    case '>=': return cmp() >= 0;
    case 'LIKE': return String(v ?? '').toLowerCase().includes(String(c.value ?? '').toLowerCase());
    case 'IS_NULL': return v === null || v === undefined;
    case 'IS_NOT_NULL': return v !== null && v !== undefined;
    default: return false;
  }
}

export function applyFilter<T extends Row>(state: SandboxState, filterId: number, type: Filter['type'], rows: T[]): T[] {
  const f = state.filters.get(filterId);
  if (!f) throw invalid('filter_id', `filter ${filterId} does not exist`);
  if (f.type !== type) throw invalid('filter_id', `filter ${filterId} is a ${f.type} filter, not a ${type} filter`);
  return rows.filter((r) => f.conditions.every((c) => holds(r, c)));
}
