import { defineOperations } from '../operation.js';

// Placeholder until this area's table lands (owner: the engineer of the activity-types area).
export const activityTypeOperations = defineOperations([]);
