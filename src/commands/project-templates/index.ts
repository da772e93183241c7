import { projectTemplateOps } from '../../api/operations/project-templates.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(projectTemplateOps);
