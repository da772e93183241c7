import { dealOps } from '../../api/operations/deals.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(dealOps);
