import type { UploadFile } from '../core/http-port.js';
import { createReadStream } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';

/** A file to send as one part of a multipart/form-data body. */
export type { UploadFile } from '../core/http-port.js';

/** A body whose bytes are produced on demand, so a file is never held in memory and a retry can send it again. */
export interface StreamBody {
  contentType: string;
  length: number;
  open(): Readable;
}

/**
 * multipart/form-data with the other inputs as text parts and the file streamed from disk. The length
 * is known up front (so the request carries Content-Length, as the service expects for uploads).
 */
export function multipartBody(fields: Record<string, unknown>, file: UploadFile): StreamBody {
  // Web Crypto is on globalThis: no node:crypto import for every command that only might upload.
  const boundary = `----crmctl${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === null) continue;
    const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${text}\r\n`));
  }
  const head = Buffer.concat([...parts, Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`)]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + file.size + tail.length,
    open() {
      const out = new PassThrough();
      out.write(head);
      let sent = 0;
      const src = createReadStream(file.path);
      src.on('data', (chunk) => {
        sent += chunk.length;
        file.onProgress?.(sent, file.size);
      });
      src.on('error', (err) => out.destroy(err));
      src.on('end', () => out.end(tail));
      src.pipe(out, { end: false });
      return out;
    },
  };
}

function quote(s: string): string {
  return s.replace(/["\r\n]/g, '_');
}

/** Content type from the file name; the service accepts what browsers send. */
export function contentTypeOf(filename: string): string {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  const types: Record<string, string> = {
    png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml',
    pdf: 'application/pdf', txt: 'text/plain', csv: 'text/csv', json: 'application/json', html: 'text/html',
    mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', m4a: 'audio/mp4', zip: 'application/zip',
    doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xls: 'application/vnd.ms-excel', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  };
  return types[ext] ?? 'application/octet-stream';
}
