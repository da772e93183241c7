import { Transform, type TransformCallback } from 'node:stream';

/**
 * Largest JSON-RPC message the server reads. The service refuses request headers and bodies of a
 * few MB anyway (431/413), and the SDK's reader gives up at 10 MB by closing the connection, which
 * ends the server without a word. A larger message is answered with an error for its id instead.
 */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Enough of an oversized line's ends to find its id, method and tool name (the SDK puts the id last). */
const KEEP = 4096;

/**
 * Passes complete lines (messages) through, up to `max` bytes each. A longer line is not kept: only
 * its first and last bytes are, and `onOversized` answers it once it ends. Memory stays bounded by
 * `max` whatever a client sends.
 */
export function capMessages(max: number, onOversized: (info: { bytes: number; id: string | number | undefined; method: string | undefined; tool: string | undefined }) => void): Transform {
  let parts: Buffer[] = [];
  let size = 0;
  let over = false;
  let head = '';
  let tail = Buffer.alloc(0);
  const finishOversized = () => {
    const end = tail.toString('utf8');
    const idAt = /"id":\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*}\s*$/.exec(end) ?? /^\s*\{[^{]*?"id":\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head);
    const id = idAt ? (JSON.parse(idAt[1]!) as string | number) : undefined;
    const method = /"method":\s*"([^"]+)"/.exec(head)?.[1] ?? /"method":\s*"([^"]+)"/.exec(end)?.[1];
    const tool = /"params":\s*\{\s*"name":\s*"([^"]+)"/.exec(head)?.[1];
    onOversized({ bytes: size, id, method, tool });
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      let at = 0;
      while (at < chunk.length) {
        const nl = chunk.indexOf(0x0a, at);
        const piece = chunk.subarray(at, nl < 0 ? chunk.length : nl + 1);
        at += piece.length;
        size += piece.length;
        if (!over && size > max) {
          over = true;
          head = Buffer.concat([...parts, piece]).subarray(0, KEEP).toString('utf8');
          parts = [];
        }
        if (over) {
          tail = Buffer.concat([tail, piece]).subarray(-KEEP);
          if (nl >= 0) {
            finishOversized();
            over = false;
            size = 0;
            tail = Buffer.alloc(0);
            head = '';
          }
          continue;
        }
        parts.push(piece);
        if (nl >= 0) {
          this.push(Buffer.concat(parts));
          parts = [];
          size = 0;
        }
      }
      done();
    },
    flush(done: TransformCallback) {
      if (parts.length) this.push(Buffer.concat(parts));
      done();
    },
  });
}
