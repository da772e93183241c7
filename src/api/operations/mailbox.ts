import { defineOperations } from '../operation.js';

// Placeholder until this area's table lands (owner: the engineer of the mailbox area).
export const mailboxOperations = defineOperations([]);
