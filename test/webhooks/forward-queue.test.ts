// `webhooks listen --forward` to an app that never answers used to hold every payload (508 MB after
// 1,500 deliveries of 1 MB). The forward queue is bounded in count and bytes like the receive side:
// past the cap a delivery is answered 503 (the service sends it again), with one notice on stderr.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { ForwardQueue } from '../../src/commands/webhooks/forward-queue.js';
import { DEFAULT_MAX_FORWARD_BYTES, DEFAULT_MAX_FORWARD_QUEUE } from '../../src/commands/webhooks/listen-limits.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { freePort, until, waitForListener } from './helpers.js';

const MB = 1024 * 1024;

describe('the forward queue holds at most its caps, whatever the target does', () => {
  it('1,500 deliveries of 1 MB to a target that never answers: the queue never holds more than the caps', () => {
    let sends = 0;
    const events: string[] = [];
    const queue = new ForwardQueue(() => {
      sends++;
      return new Promise<void>(() => {}); // never answers
    }, { maxCount: DEFAULT_MAX_FORWARD_QUEUE, maxBytes: DEFAULT_MAX_FORWARD_BYTES }, (e) => events.push(e.full ? `full at ${e.count}/${e.bytes}` : `room after ${e.refused}`));
    const payload = 'x'.repeat(MB);
    let taken = 0, most = { count: 0, bytes: 0 };
    for (let i = 0; i < 1500; i++) {
      if (queue.offer(payload, 'application/json')) taken++;
      const h = queue.held;
      most = { count: Math.max(most.count, h.count), bytes: Math.max(most.bytes, h.bytes) };
    }
    // 16 MB by default: 16 payloads of 1 MB (one of them being forwarded), the other 1,484 refused.
    expect(taken).toBe(16);
    expect(most).toEqual({ count: 16, bytes: 16 * MB });
    expect(queue.held).toEqual({ count: 16, bytes: 16 * MB });
    expect(sends).toBe(1);
    // One notice when it filled, not one per refusal.
    expect(events).toEqual([`full at 16/${16 * MB}`]);
    expect(queue.stop()).toBe(15);
    expect(queue.held).toEqual({ count: 1, bytes: MB });
  });

  it('the count cap holds for small payloads; forwarding in order frees room, and the refusals are reported once', async () => {
    const sent: string[] = [];
    const answers: Array<() => void> = [];
    const events: string[] = [];
    const queue = new ForwardQueue((body) => {
      sent.push(body);
      return new Promise<void>((r) => answers.push(r));
    }, { maxCount: 3, maxBytes: MB }, (e) => events.push(e.full ? `full at ${e.count}` : `room after ${e.refused}`));
    expect(['a', 'b', 'c', 'd', 'e'].map((b) => queue.offer(b, undefined))).toEqual([true, true, true, false, false]);
    expect(queue.held).toEqual({ count: 3, bytes: 3 });
    answers.shift()!();
    await until(async () => sent.length === 2);
    expect(queue.offer('f', undefined)).toBe(true);
    expect(events).toEqual(['full at 3', 'room after 2']);
    while (sent.length < 4 || answers.length) {
      answers.shift()?.();
      await new Promise((r) => setTimeout(r, 1));
    }
    await queue.drained();
    expect(sent).toEqual(['a', 'b', 'c', 'f']);
    expect(queue.held).toEqual({ count: 0, bytes: 0 });
  });

  it('an empty queue always takes one delivery, even one larger than the byte cap', () => {
    const queue = new ForwardQueue(() => new Promise<void>(() => {}), { maxCount: 10, maxBytes: 10 }, () => {});
    expect(queue.offer('x'.repeat(100), undefined)).toBe(true);
    expect(queue.offer('y', undefined)).toBe(false);
  });
});

describe('webhooks listen --forward to an app that never answers', () => {
  it('past --max-forward-queue deliveries are answered 503 and not printed; one notice on stderr; the held ones are named at stop', async () => {
    // The app under development: takes the request and never answers.
    const hung: IncomingMessage[] = [];
    const app = createServer((req) => void hung.push(req));
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', () => r()));
    const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks`;
    try {
      const port = await freePort();
      const done = runCli(['webhooks', 'listen', '--port', String(port), '--timeout', '3', '--forward', appUrl, '--max-forward-queue', '3'], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
      await waitForListener(port);
      const statuses: number[] = [];
      for (let i = 1; i <= 10; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ meta: { action: 'create', entity: 'deal', entity_id: String(i), version: '2.0' }, pad: 'x'.repeat(1000) }) });
        statuses.push(res.status);
        if (res.status === 503) {
          expect(res.headers.get('retry-after')).toBe('10');
          expect(await res.json()).toEqual({ error: 'busy: the forward queue is full (--max-forward-queue, --max-forward-bytes)' });
        } else await res.text();
      }
      // One being forwarded (hung at the app) and two waiting: the cap of 3; the other seven refused.
      expect(statuses).toEqual([200, 200, 200, 503, 503, 503, 503, 503, 503, 503]);
      // The forward of the first delivery reaches the app a moment after its 200 (on a busy machine, later than the tenth POST).
      await vi.waitFor(() => expect(hung).toHaveLength(1), { timeout: 2500, interval: 20 });
      const r = await done;
      expect(r.code).toBe(0);
      expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).meta.entity_id)).toEqual(['1', '2', '3']);
      const notices = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
      expect(notices).toEqual([
        expect.stringMatching(new RegExp(`^warning: forward queue full \\(3 deliveries, \\d+ bytes waiting for ${appUrl.replace(/[/.]/g, '\\$&')}; --max-forward-queue 3, --max-forward-bytes ${DEFAULT_MAX_FORWARD_BYTES}\\): answering 503 until it has room$`)),
        `warning: stopped with 2 deliveries not forwarded to ${appUrl}`,
      ]);
    } finally {
      app.closeAllConnections();
      await new Promise<void>((r) => app.close(() => r()));
    }
  }, 20_000);

  it('--max-forward-queue and --max-forward-bytes must be positive integers (exit 2)', async () => {
    for (const flag of ['--max-forward-queue', '--max-forward-bytes']) {
      const r = await runCli(['webhooks', 'listen', flag, '0'], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`error: ${flag}: must be a positive integer (got "0")\n`);
    }
  });
});
