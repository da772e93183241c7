// What a command that calls the service loads, in one import: the client, its transport and the
// credentials. Each separate import() is a file of its own in the bundle (a facade of the shared
// service chunk, scripts/lib/chunk-groups.mjs) and Node pays for every file it loads.
export { createCredentialSource } from '../auth/credentials.js';
export { HttpClient } from '../http/client.js';
export { createTransport } from '../http/create-transport.js';
