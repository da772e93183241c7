import { leadLabelOps } from '../../api/operations/lead-labels.js';
import { defineArea } from '../define-area.js';

/** Every lead-label verb is generated from its operation row; nothing here needs hand-tuning. */
export const area = defineArea(leadLabelOps);
