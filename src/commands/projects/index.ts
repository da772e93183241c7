import { projectOps } from '../../api/operations/projects.js';
import { defineArea } from '../define-area.js';
import { withCustomFields } from './custom-fields.js';

/** create/update: the generated command plus --custom-field KEY=VALUE (the board/phase check is the operation's: src/api/checks/projects.ts). */
export const area = defineArea(projectOps, { extend: { create: withCustomFields, update: withCustomFields } });
