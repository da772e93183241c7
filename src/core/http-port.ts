/**
 * What the Context hands out as its HTTP client, and the request/answer types it speaks. The port
 * lives on the ground floor so core names no module above it; src/http/client.ts implements it (the
 * one client), and tests or other transports could too.
 */

/** A file sent as multipart/form-data. */
export interface UploadFile {
  /** Form field the service reads the file from (`file`, `data`). */
  field: string;
  path: string;
  /** File name sent in the part header. */
  filename: string;
  contentType: string;
  size: number;
  /** Told how many bytes of the file went out so far (a progress bar on a terminal). */
  onProgress?: (sent: number, total: number) => void;
}

/** Where a downloaded body goes: opened once per attempt with the answer's headers, finished or aborted. */
export interface DownloadSink {
  open(headers: Record<string, string | string[] | undefined>): NodeJS.WritableStream;
}

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
  sink?: DownloadSink;
  /** Said once per run on stderr before the first such request (a deprecated v1 endpoint; core/deprecation.ts). */
  notice?: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** The pacing of one process's requests to the cost budget, as far as callers read it. */
export interface Pacer {
  /** Cost units acquired, and times we waited for a window (progress lines, benchmarks). */
  readonly stats: { acquired: number; waits: number };
}

/** The company's daily token budget as the last answer that carried it reported it. */
export interface DailyBudget {
  limit: number;
  remaining: number;
  /** When the answer that carried these figures arrived (our clock, epoch ms). */
  seenAt: number;
}

/** The one HTTP client, as commands and automation use it. */
export interface HttpPort {
  readonly governor: Pacer;
  /** The daily token budget as the last answer that carried it reported it (this run only). */
  readonly daily: DailyBudget | undefined;
  /** Calls `fn` once the daily budget is known (at once when it is). */
  whenDailyKnown(fn: (d: DailyBudget) => void): void;
  /** Now on the service's clock (ours plus the offset seen in its Date header). */
  serviceNow(): number;
  /** Service clock minus ours, from the last answer's Date header (1 s resolution); undefined until known. */
  readonly clockOffsetMs: number | undefined;
  /** Forgets a day seen spent: the next request is sent and its answer believed (crmctl mcp, before each call). */
  recheckDaily(): void;
  send(req: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}
