import { pipelineOps } from '../../api/operations/pipelines.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(pipelineOps);
