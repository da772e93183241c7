// Success envelopes (the vendor's documents). Handlers return these so every area answers
// in the service's shape.
import type { SandboxResponse } from '../types.js';

export function ok(data: unknown, additional_data: unknown = null, status = 200): SandboxResponse {
  return { status, body: { success: true, data, additional_data } };
}

export function created(data: unknown, additional_data: unknown = null): SandboxResponse {
  return ok(data, additional_data, 201);
}
