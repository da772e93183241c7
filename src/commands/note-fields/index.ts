import { noteFieldOps } from '../../api/operations/note-fields.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(noteFieldOps);
