import { leadFieldOps } from '../../api/operations/lead-fields.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(leadFieldOps);
