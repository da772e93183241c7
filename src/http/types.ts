import type { UploadFile } from './multipart.js';

// The contract between core's Context and src/auth lives in core (the ground floor imports nothing above it).
export type { CredentialSource } from '../core/credentials.js';

export interface HttpRequest {
  method: string;
  /** Path with placeholders filled, e.g. /api/v1/leads/abc. */
  path: string;
  query?: Record<string, string | number | boolean | Array<string | number> | undefined | null>;
  body?: unknown;
  encoding?: 'json' | 'form' | 'multipart';
  headers?: Record<string, string>;
  /** Safe to resend when the outcome is unknown. */
  idempotent: boolean;
  /** Cost of the operation, for pacing to the budget. */
  cost?: number | null;
  /** Scopes that allow the call, named in 403 messages. */
  scopes?: string[];
  /**
   * For non-idempotent writes: asked after an ambiguous failure (reset after send, 502/503/504)
   * whether the write landed. Returns the existing result (then we stop) or undefined (then we resend).
   */
  reconcile?: () => Promise<HttpResponse | undefined>;
  /** A file sent as multipart/form-data, with `body` as the other parts. */
  upload?: UploadFile;
  /** Shown the final error answer before it becomes a typed error (`crmctl api --include` prints it). */
  onErrorResponse?: (res: HttpResponse) => void | Promise<void>;
  /** A 2xx body is streamed into this (downloads) instead of being parsed; `body` is then undefined. */
  sink?: import('./transport.js').DownloadSink;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}
