import { searchOps } from '../../api/operations/search.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(searchOps);
