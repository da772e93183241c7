/**
 * The deliveries `webhooks listen --forward` has taken and not yet forwarded, bounded in count and bytes
 * as the receive side is (listen-limits.ts). Forwarded one at a time, in the order received (the app
 * under development sees events in order). Unbounded, a target that never answers made the listener hold
 * every payload: 508 MB after 1,500 deliveries of 1 MB. Past the cap a delivery is refused (the listener
 * answers 503, and the service sends it again later), so memory stays at the cap whatever the target does.
 */

export interface ForwardLimits {
  /** Deliveries held, the one being forwarded included. */
  maxCount: number;
  /** Bytes of payload held, the one being forwarded included. */
  maxBytes: number;
}

interface Pending {
  body: string;
  contentType: string | undefined;
  bytes: number;
}

export class ForwardQueue {
  private readonly pending: Pending[] = [];
  private inFlight: Pending | undefined;
  private heldBytes = 0;
  private idle: Promise<void> = Promise.resolve();
  /** Deliveries refused since the queue last had room: reported once it has room again. */
  private refusedSinceFull = 0;

  constructor(
    /** Forwards one payload; reports its own failures (it is not expected to throw). */
    private readonly send: (body: string, contentType: string | undefined) => Promise<void>,
    private readonly limits: ForwardLimits,
    /** Told when the queue fills (once) and when it has room again (with how many were refused meanwhile). */
    private readonly onFull: (event: { full: true; count: number; bytes: number } | { full: false; refused: number }) => void,
  ) {}

  /** What the queue holds now: deliveries (the one in flight included) and their bytes. */
  get held(): { count: number; bytes: number } {
    return { count: this.pending.length + (this.inFlight ? 1 : 0), bytes: this.heldBytes };
  }

  /**
   * Takes a delivery to forward, or refuses it (false) when it would pass either cap. An empty queue
   * always takes one, so a payload larger than the byte cap is still forwarded, alone.
   */
  offer(body: string, contentType: string | undefined): boolean {
    const bytes = Buffer.byteLength(body);
    const { count } = this.held;
    if (count > 0 && (count + 1 > this.limits.maxCount || this.heldBytes + bytes > this.limits.maxBytes)) {
      if (this.refusedSinceFull++ === 0) this.onFull({ full: true, count, bytes: this.heldBytes });
      return false;
    }
    if (this.refusedSinceFull > 0) {
      this.onFull({ full: false, refused: this.refusedSinceFull });
      this.refusedSinceFull = 0;
    }
    this.pending.push({ body, contentType, bytes });
    this.heldBytes += bytes;
    if (!this.inFlight) this.idle = this.run();
    return true;
  }

  /** Resolves once everything taken so far has been forwarded (or has failed). */
  drained(): Promise<void> {
    return this.idle;
  }

  /** Forgets what is not yet being forwarded (the listener is stopping); returns how many were dropped. */
  stop(): number {
    const dropped = this.pending.splice(0);
    for (const p of dropped) this.heldBytes -= p.bytes;
    return dropped.length;
  }

  private async run(): Promise<void> {
    for (let next = this.pending.shift(); next; next = this.pending.shift()) {
      this.inFlight = next;
      try {
        await this.send(next.body, next.contentType);
      } finally {
        this.inFlight = undefined;
        this.heldBytes -= next.bytes;
      }
    }
  }
}
