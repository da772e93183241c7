import { taskOps } from '../../api/operations/tasks.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(taskOps);
