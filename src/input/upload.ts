import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Context } from '../core/context.js';
import { UsageError, ValidationError } from '../core/errors.js';
import { contentTypeOf, type UploadFile } from '../http/multipart.js';

/** The largest file crmctl sends (the sandbox refuses larger ones too); see docs/interface-deviations.md. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export interface PreparedUpload {
  file: UploadFile;
  /** Removes what was staged (stdin is copied to a temporary file so a retry can send it again). */
  cleanup(): void;
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * The file behind `--file PATH|-`, checked before anything is sent: it exists, it is a file, it is not
 * over the size limit. Standard input is copied to a temporary file first (its size is known then, and
 * a retried request can read it again). On a terminal a progress line counts the bytes sent.
 */
export async function prepareUpload(ctx: Context, spec: { field: string; maxBytes?: number }, value: unknown, flag = '--file'): Promise<PreparedUpload> {
  if (value === undefined || value === '') throw new ValidationError([{ field: flag, rule: 'is required: the path of the file to upload (- reads stdin)' }]);
  const max = spec.maxBytes ?? MAX_UPLOAD_BYTES;
  let path = String(value);
  let filename = basename(path);
  let cleanup = (): void => undefined;
  if (path === '-') {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-upload-'));
    path = join(dir, 'stdin');
    filename = 'stdin';
    cleanup = () => rmSync(dir, { recursive: true, force: true });
    let size = 0;
    try {
      await pipeline(ctx.io.stdin, async function* (src: AsyncIterable<Buffer | string>) {
        for await (const chunk of src) {
          size += chunk.length;
          if (size > max) throw new ValidationError([{ field: flag, rule: `stdin is over ${mb(max)}, the largest file the service takes` }]);
          yield chunk;
        }
      }, createWriteStream(path));
    } catch (err) {
      cleanup();
      throw err;
    }
  }
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new UsageError(`${flag}: ${path} is a directory, not a file`);
    size = st.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${flag}: no such file ${path}` : `${flag}: cannot read ${path} (${code ?? (err as Error).message})`);
  }
  if (size > max) {
    cleanup();
    throw new ValidationError([{ field: flag, rule: `${path} is ${mb(size)}; the service takes files up to ${mb(max)}` }]);
  }
  const progress = ctx.io.isStderrTTY && size > 1024 * 1024 ? progressLine(ctx, filename) : undefined;
  return {
    file: { field: spec.field, path, filename, contentType: contentTypeOf(filename), size, onProgress: progress },
    cleanup: () => {
      if (progress) ctx.io.stderr.write('\n');
      cleanup();
    },
  };
}

/** "Uploading report.pdf: 42% (21.0 of 50.0 MB)" rewritten in place, at most every whole percent. */
function progressLine(ctx: Context, name: string): (sent: number, total: number) => void {
  let last = -1;
  return (sent, total) => {
    const pct = Math.floor((sent / total) * 100);
    if (pct === last) return;
    last = pct;
    ctx.io.stderr.write(`\rUploading ${name}: ${pct}% (${mb(sent)} of ${mb(total)})`);
  };
}
