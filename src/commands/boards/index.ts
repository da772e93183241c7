import { boardOps } from '../../api/operations/boards.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(boardOps);
