import { projectOps } from '../../api/operations/projects.js';
import { defineArea } from '../define-area.js';
import type { CommandExtension } from '../operation-command.js';
import { projectPreflight } from './checks.js';
import { customFieldOption, foldCustomFields } from './custom-fields.js';

/** create/update: the generated command plus --custom-field KEY=VALUE and the board/phase check. */
const withCustomFields: CommandExtension = { options: [customFieldOption], adjust: foldCustomFields, preflight: projectPreflight };

export const area = defineArea(projectOps, { extend: { create: withCustomFields, update: withCustomFields } });
