import type { Context } from '../core/context.js';
import { statusLineOpen } from '../core/io.js';
import { safeText } from '../output/safe-text.js';

/**
 * One self-rewriting status line on stderr, only on a terminal (scripts and CI get a clean stream).
 * At most ~8 updates a second; `done` leaves the final figures on their own line.
 */
export class Progress {
  private readonly started = Date.now();
  private last = 0;
  private readonly enabled: boolean;

  constructor(private readonly ctx: Context, private readonly label: string) {
    this.enabled = ctx.io.isStderrTTY;
  }

  update(count: number, opts: { total?: number; extra?: string; force?: boolean } = {}): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!opts.force && now - this.last < 125) return;
    this.last = now;
    this.ctx.io.stderr.write(`\r\x1b[K${this.text(count, opts.total, opts.extra)}`);
    // Whatever stderr prints next (a notice, the error) ends this line first (core/io.ts endStatusLine).
    statusLineOpen(this.ctx.io.stderr, true);
  }

  done(count: number, opts: { total?: number; extra?: string } = {}): void {
    if (!this.enabled) return;
    this.ctx.io.stderr.write(`\r\x1b[K${this.text(count, opts.total, opts.extra)}\n`);
    statusLineOpen(this.ctx.io.stderr, false);
  }

  private text(count: number, total?: number, extra?: string): string {
    const secs = Math.max(0.001, (Date.now() - this.started) / 1000);
    const rate = count / secs;
    const of = total !== undefined ? ` / ${total.toLocaleString('en-US')}` : '';
    const eta = total !== undefined && rate > 0 && total > count ? `, ${formatDuration((total - count) / rate)} left` : '';
    // The label and the extra may carry a file's or a record's name: never a terminal sequence.
    return `${safeText(this.label)}: ${count.toLocaleString('en-US')}${of} (${Math.round(rate).toLocaleString('en-US')}/s${eta})${extra ? `, ${safeText(extra)}` : ''}`;
  }
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
