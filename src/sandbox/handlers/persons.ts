// The persons area lives in ./persons/; this file keeps the import line of handlers/index.ts unchanged.
export { personsArea } from './persons/index.js';
