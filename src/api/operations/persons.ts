import { defineOperations } from '../operation.js';

// Placeholder until this area's table lands (owner: the engineer of the persons area).
export const personOperations = defineOperations([]);
