import { recentOps } from '../../api/operations/recents.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(recentOps);
