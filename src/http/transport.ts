import type { StreamBody } from './multipart.js';

/** The wire under HttpClient: one request in, status + headers + body text out. */
export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  /** Text, or a streamed body (file uploads) opened once per attempt. */
  body?: string | StreamBody;
  timeoutMs: number;
}

export interface Transport {
  request(url: string, init: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}
