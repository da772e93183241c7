import { defineOperations } from '../operation.js';

// Placeholder until this area's table lands (owner: the engineer of the org-fields area).
export const organizationFieldOperations = defineOperations([]);
