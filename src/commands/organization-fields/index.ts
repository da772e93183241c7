import { organizationFieldOps } from '../../api/operations/organization-fields.js';
import { fieldArea } from '../fields/area.js';

export const area = fieldArea(organizationFieldOps, 'organization-fields', 'organization');
