import type { HttpRequest, HttpResponse } from '../core/http-port.js';

// The contract between core's Context and src/auth lives in core (the ground floor imports nothing above it).
export type { CredentialSource } from '../core/credentials.js';
// Request and answer types are the Context's HTTP port (src/core/http-port.ts).
export type { HttpRequest, HttpResponse };
