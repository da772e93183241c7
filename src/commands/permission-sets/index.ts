import { permissionSetOps } from '../../api/operations/permission-sets.js';
import { defineArea } from '../define-area.js';
import { assignments } from './assignments.js';

export const area = defineArea(permissionSetOps, { commands: [assignments] });
