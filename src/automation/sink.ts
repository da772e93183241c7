import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { CliError, UsageError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { fsyncAside, writeAside } from '../fs/atomic-write.js';

/** Where an export's bytes go: a file (counted, fsynced per page, resumable) or stdout (back-pressured). */
export interface Sink {
  /** Bytes written so far (file offset). */
  readonly bytes: number;
  write(text: string): Promise<void>;
  /** Makes what was written durable before a checkpoint names it. */
  sync(): void;
  close(): void;
}

export class FileSink implements Sink {
  private fd: number;
  private scratch: Buffer | undefined;
  bytes = 0;

  /** `resumeAt` keeps the first bytes (the checkpointed length) and drops any half-written page after them. */
  constructor(readonly path: string, resumeAt?: number) {
    try {
      if (resumeAt === undefined) {
        this.fd = openSync(path, 'w');
      } else {
        this.fd = openSync(path, 'r+');
        const size = fstatSync(this.fd).size;
        if (size < resumeAt) {
          closeSync(this.fd);
          throw new UsageError(`--resume: ${path} has ${size} bytes but the checkpoint names ${resumeAt}; the file was changed since. Run with --new-run to start over.`);
        }
        ftruncateSync(this.fd, resumeAt);
        this.bytes = resumeAt;
      }
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw writeError(err, path);
    }
  }

  async write(text: string): Promise<void> {
    const length = Buffer.byteLength(text);
    try {
      // A string write with a position does not copy the page into a Buffer of our own first.
      const n = writeSync(this.fd, text, this.bytes, 'utf8');
      if (n !== length) {
        const buf = Buffer.from(text, 'utf8');
        let off = n;
        while (off < length) off += writeSync(this.fd, buf, off, length - off, this.bytes + off);
      }
    } catch (err) {
      throw writeError(err, this.path);
    }
    this.bytes += length;
  }

  /**
   * `text` as UTF-8 in this sink's own buffer, reused page after page, valid until the next call: a new
   * Buffer per page would be garbage the heap does not weigh (its bytes are outside it), and the RSS of a
   * long run would drift up with them (see docs/migrations.md, "Measured").
   */
  encode(text: string): Uint8Array {
    const need = Buffer.byteLength(text, 'utf8');
    if (!this.scratch || this.scratch.length < need) this.scratch = Buffer.allocUnsafe(Math.max(need, 2 * (this.scratch?.length ?? 0)));
    return this.scratch.subarray(0, this.scratch.write(text, 0, 'utf8'));
  }

  /**
   * write() of bytes on libuv's thread pool: while syncs of other files are under way (a backup's previous
   * page, its journal), the file system may make a write wait for them, and the event loop would wait with it.
   */
  async writeAside(bytes: Uint8Array): Promise<void> {
    const at = this.bytes;
    // The place is taken now: a write asked for after this one goes after it, whichever thread is first.
    this.bytes += bytes.length;
    try {
      let off = 0;
      while (off < bytes.length) off += (await writeAside(this.fd, bytes, off, bytes.length - off, at + off)).bytesWritten;
    } catch (err) {
      throw writeError(err, this.path);
    }
  }

  sync(): void {
    try {
      fsyncSync(this.fd);
    } catch (err) {
      throw writeError(err, this.path);
    }
  }

  /**
   * sync() on libuv's thread pool: the same durability, while the event loop goes on with other work (a
   * backup's other lists); the file must not be closed before it resolves.
   */
  async syncAside(): Promise<void> {
    await fsyncAside(this.fd).catch((err: unknown) => {
      throw writeError(err, this.path);
    });
  }

  close(): void {
    closeSync(this.fd);
  }
}

export class StreamSink implements Sink {
  bytes = 0;
  private failed: Error | undefined;
  private readonly onError = (err: Error) => {
    this.failed ??= err;
  };

  constructor(private readonly stream: Writable) {
    stream.on('error', this.onError);
  }

  write(text: string): Promise<void> {
    if (this.failed) return Promise.reject(writeError(this.failed, 'stdout'));
    return new Promise((resolve, reject) => {
      this.stream.write(text, (err) => {
        if (err || this.failed) reject(writeError(err ?? this.failed, 'stdout'));
        else {
          this.bytes += Buffer.byteLength(text);
          resolve();
        }
      });
    });
  }

  sync(): void {}

  close(): void {
    // Keep the listener: a late EPIPE from the closed pipe must not crash the process.
  }
}

/** ENOSPC, EPIPE and friends as a message that names the cause and the fix (exit 1). */
export function writeError(err: unknown, where: string): CliError {
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  const resumable = where !== 'stdout';
  const again = resumable ? 'then run the same command again with --resume (the checkpoint keeps what was written)' : 'then run the command again';
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new CliError(`No space left on the device while writing ${where} (${code}).`, EXIT.ERROR, `Free some space or choose another --out, ${again}.`);
    case 'EPIPE':
    case 'ERR_STREAM_DESTROYED':
      return new CliError(`Output closed early while writing ${where} (${code}): the program reading it stopped.`, EXIT.ERROR, 'Write to a file with --out FILE (resumable with --resume), or let the reader consume everything.');
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new CliError(`Cannot write ${where} (${code}).`, EXIT.ERROR, 'Choose a --out path you may write to.');
    case 'ENOENT':
      return new CliError(`Cannot write ${where}: its folder does not exist (ENOENT).`, EXIT.ERROR, 'Create the folder or choose another --out.');
    default:
      return new CliError(`Writing ${where} failed: ${code || (err as Error)?.message || String(err)}.`, EXIT.ERROR, resumable ? `Fix the cause, ${again}.` : undefined);
  }
}
