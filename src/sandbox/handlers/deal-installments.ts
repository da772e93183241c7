// The deal-installments area lives in ./deal-installments/; this file keeps the import line of handlers/index.ts unchanged.
export { dealInstallmentsArea } from './deal-installments/index.js';
