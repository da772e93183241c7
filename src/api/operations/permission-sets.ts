import { defineOperations } from '../operation.js';

// Placeholder until this area's table lands (owner: the engineer of the permission-sets area).
export const permissionSetOperations = defineOperations([]);
