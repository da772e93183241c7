import { phaseOps } from '../../api/operations/phases.js';
import { defineArea } from '../define-area.js';

/** Generated verbs; the writes' account checks (order_nr range, a phase that still holds projects) are the operations' (src/api/checks/phases.ts). */
export const area = defineArea(phaseOps);
