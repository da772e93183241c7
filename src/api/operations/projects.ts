import { defineOperations } from '../operation.js';

// Placeholder until this area's table lands (owner: the engineer of the projects area).
export const projectOperations = defineOperations([]);
