import { defineOperations } from '../operation.js';

// Placeholder until this area's table lands (owner: the engineer of the phases area).
export const phaseOperations = defineOperations([]);
