import { filterOps } from '../../api/operations/filters.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(filterOps);
