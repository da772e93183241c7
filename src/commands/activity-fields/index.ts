import { activityFieldOps } from '../../api/operations/activity-fields.js';
import { defineArea } from '../define-area.js';

/** Activity field metadata is read-only: list and get, both generated. */
export const area = defineArea(activityFieldOps);
