import type { HttpPort } from '../core/http-port.js';
import type { CredentialSource } from '../http/types.js';
import type { RawInput, ValidInput } from '../input/operation-input.js';
import type { Operation } from './operation.js';

// The contracts of the one entry (prepare.ts), kept apart from it so that the call layer and the
// account checks can name them without importing the entry itself (no import circle).

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
