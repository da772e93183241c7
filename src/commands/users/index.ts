import { userOps } from '../../api/operations/users.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(userOps);
