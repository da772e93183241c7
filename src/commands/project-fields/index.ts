import { projectFieldOps } from '../../api/operations/project-fields.js';
import { fieldArea } from '../fields/area.js';

export const area = fieldArea(projectFieldOps, 'project-fields', 'project');
