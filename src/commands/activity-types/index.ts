import { activityTypeOps } from '../../api/operations/activity-types.js';
import { defineArea } from '../define-area.js';

/** Every activity-type verb is generated from its operation row (key_string is refused by the body schema). */
export const area = defineArea(activityTypeOps);
