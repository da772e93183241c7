import { leadSourceOps } from '../../api/operations/lead-sources.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(leadSourceOps);
