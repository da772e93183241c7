import { filterOps } from '../../api/operations/filters.js';
import { defineArea } from '../define-area.js';
import { whereFlags } from './where-flags.js';

// Update examples keep the table's own; the flags are the same.
export const area = defineArea(filterOps, { extend: { create: whereFlags, update: { ...whereFlags, examples: ['crmctl filters update 1 --name "Bigger open deals"', 'crmctl filters update 1 --where "Budget > 5000" --where "Stage = Qualified"'] } } });
