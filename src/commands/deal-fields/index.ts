import { dealFieldOps } from '../../api/operations/deal-fields.js';
import { fieldArea } from '../fields/area.js';

export const area = fieldArea(dealFieldOps, 'deal-fields', 'deal');
