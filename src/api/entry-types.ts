import type { HttpPort } from '../core/http-port.js';
import type { CredentialSource } from '../http/types.js';
import type { Operation } from './operation.js';

// The contracts of the one entry (src/entry/prepare.ts), kept below it so that the call layer and the
// account checks name them without importing the entry itself (no import circle).

/** Input of one call before its schemas checked it (from flags, a fixture, a row, an MCP tool call). */
export interface RawInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/** Input the operation's schemas accepted (transforms applied: a path id is a number now). */
export interface ValidInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

declare const preparedBrand: unique symbol;

/**
 * Input that went through `prepare`: no unknown key, the operation's schemas passed (transforms
 * applied), and the operation's account checks passed. `callOperation` and `paginate` take only
 * this, so a caller that skips the entry does not compile.
 */
export type Prepared = ValidInput & { readonly [preparedBrand]: true };

/**
 * What the entry reads with: the HTTP client, debug lines, the API address. A CLI Context is one;
 * `readerOf` makes one from an HttpPort. Never used to write.
 */
export interface Reader {
  http(): Promise<HttpPort>;
  debug(line: string): void;
  credentials?(): Promise<CredentialSource>;
  /** Answers of reads made with this reader, kept so many rows checked against one list read it once (import). */
  memo?: Map<string, Promise<unknown>>;
  /**
   * The environment and profile of a CLI Context (a Context is a Reader): what caches kept under the
   * config directory are keyed by (src/names/cache.ts). A reader made from an HttpPort has neither and
   * keeps such caches in memory.
   */
  env?: NodeJS.ProcessEnv;
  profileName?(): Promise<string>;
}

/** What an account check may use: a Reader plus reads that go through the same entry. */
export interface CheckReader extends Reader {
  read(op: Operation, raw?: Partial<RawInput>): Promise<unknown>;
  readAll(op: Operation, raw?: Partial<RawInput>, paging?: PageOptions): AsyncGenerator<unknown>;
}

export interface PageOptions {
  /** Stop after this many records in all. */
  limit?: number;
  /** Follow every page (otherwise only the first). */
  all?: boolean;
  /** Resume from this offset or cursor. */
  from?: string | number;
  /** Told after each page: where the next page starts (for checkpoints) and the page size. */
  onPage?: (info: { next: string | number | undefined; count: number; total?: number }) => void | Promise<void>;
}
