import { billingOps } from '../../api/operations/billing.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(billingOps);
