import { callLogOps } from '../../api/operations/call-logs.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(callLogOps);
