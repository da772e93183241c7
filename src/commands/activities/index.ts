import { activityOps } from '../../api/operations/activities.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(activityOps);
