/**
 * A file's bytes into files/<id>: streamed to disk as they arrive (never held in memory), hashed on the
 * way, fsynced, then renamed into place, so a kill leaves either the whole file or none of it.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { createHash, type Hash } from 'node:crypto';
import { Writable } from 'node:stream';
import { toRequest } from '../api/call.js';
import type { Operation } from '../api/operation.js';
import type { Prepared } from '../entry/prepare.js';
import type { HttpPort } from '../core/http-port.js';

export interface Downloaded {
  sha256: string;
  bytes: number;
}

export async function downloadTo(http: HttpPort, op: Operation, input: Prepared, target: string): Promise<Downloaded> {
  const partial = `${target}.partial`;
  let hash: Hash | undefined;
  let bytes = 0;
  const sink = {
    // Opened once per attempt: a retried download starts the file and the hash over.
    open(): NodeJS.WritableStream {
      const fd = openSync(partial, 'w', 0o600);
      hash = createHash('sha256');
      bytes = 0;
      const h = hash;
      return new Writable({
        write(chunk: Buffer, _enc, done) {
          try {
            writeSync(fd, chunk);
            h.update(chunk);
            bytes += chunk.length;
            done();
          } catch (err) {
            done(err as Error);
          }
        },
        final(done) {
          try {
            fsyncSync(fd);
            closeSync(fd);
            done();
          } catch (err) {
            done(err as Error);
          }
        },
      });
    },
  };
  try {
    await http.send({ ...toRequest(op, input), sink });
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  renameSync(partial, target);
  return { sha256: `sha256:${hash!.digest('hex')}`, bytes };
}
