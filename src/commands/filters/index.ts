import { filterOps } from '../../api/operations/filters.js';
import { defineArea } from '../define-area.js';
import { whereFlags } from './where-flags.js';

export const area = defineArea(filterOps, { extend: { create: whereFlags } });
