import type { DownloadSink } from '../core/http-port.js';
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
  /** A 2xx answer is piped into this (file downloads) instead of being read as text; text is then ''. */
  sink?: DownloadSink;
}

export type { DownloadSink } from '../core/http-port.js';

export interface Transport {
  request(url: string, init: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}
