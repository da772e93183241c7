import { personFieldOps } from '../../api/operations/person-fields.js';
import { fieldArea } from '../fields/area.js';

export const area = fieldArea(personFieldOps, 'person-fields', 'person');
