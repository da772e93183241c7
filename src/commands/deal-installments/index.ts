import { dealInstallmentOps } from '../../api/operations/deal-installments.js';
import { defineArea } from '../define-area.js';

// The product rule (one-time products only) cannot be read beforehand, so the service's 400 decides it.
export const area = defineArea(dealInstallmentOps);
