import { stageOps } from '../../api/operations/stages.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(stageOps);
