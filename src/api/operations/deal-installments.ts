import { defineOperations } from '../operation.js';

// Placeholder until this area's table lands (owner: the engineer of the installments area).
export const dealInstallmentOperations = defineOperations([]);
