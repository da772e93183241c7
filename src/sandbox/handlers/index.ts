// Every area of the emulated service. Adding an area = one file exporting an
// AreaModule + one line here (see ../README.md).
import type { AreaModule } from '../types.js';
import { leadLabelsArea } from './lead-labels.js';
import { leadsArea } from './leads/index.js';

export const areas: AreaModule[] = [
  leadsArea,
  leadLabelsArea,
];
