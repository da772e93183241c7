import type { Readable } from 'node:stream';

/**
 * Reads a stream line by line on demand (one line for --client-secret-stdin, then pasted
 * redirect URLs for --no-browser). `close()` stops reading so the process can exit.
 */
export class LineReader {
  private buf = '';
  private lines: string[] = [];
  private ended = false;
  private waiters: Array<(line: string | undefined) => void> = [];
  private started = false;
  private readonly onData = (chunk: Buffer | string) => {
    this.buf += chunk.toString();
    for (let i = this.buf.indexOf('\n'); i >= 0; i = this.buf.indexOf('\n')) {
      this.push(this.buf.slice(0, i).replace(/\r$/, ''));
      this.buf = this.buf.slice(i + 1);
    }
  };
  private readonly onEnd = () => {
    if (this.buf) this.push(this.buf.replace(/\r$/, ''));
    this.buf = '';
    this.ended = true;
    for (const w of this.waiters.splice(0)) w(undefined);
  };

  constructor(private readonly stream: Readable) {}

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.stream.on('data', this.onData);
    this.stream.once('end', this.onEnd);
    this.stream.once('close', this.onEnd);
    this.stream.once('error', this.onEnd);
    this.stream.resume();
  }

  private push(line: string): void {
    const w = this.waiters.shift();
    if (w) w(line);
    else this.lines.push(line);
  }

  /** Next line, or undefined at end of input. */
  next(): Promise<string | undefined> {
    this.start();
    const l = this.lines.shift();
    if (l !== undefined) return Promise.resolve(l);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    if (!this.started) return;
    this.stream.off('data', this.onData);
    this.stream.off('end', this.onEnd);
    this.stream.off('close', this.onEnd);
    this.stream.off('error', this.onEnd);
    this.stream.pause();
    // process.stdin keeps the event loop alive while it is being read; let go of it.
    const s = this.stream as Readable & { unref?: () => void };
    if (typeof s.unref === 'function') s.unref();
    for (const w of this.waiters.splice(0)) w(undefined);
  }
}
