// The subscriptions area lives in ./subscriptions/; this file keeps the import line of handlers/index.ts unchanged.
export { subscriptionsArea } from './subscriptions/index.js';
