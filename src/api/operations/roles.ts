import { defineOperations } from '../operation.js';

// Placeholder until this area's table lands (owner: the engineer of the roles area).
export const roleOperations = defineOperations([]);
