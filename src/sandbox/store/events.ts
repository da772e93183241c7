// Event bus on the sandbox state. Every create/change/delete of a service object
// type goes through here so that webhook delivery (another area) can subscribe
// without the handlers knowing about webhooks.

export type EventAction = 'create' | 'change' | 'delete';

/**
 * Object types the service can deliver webhooks for (interface, "Events"; webhooks v2 added project,
 * task, board, phase, deal_product and deal_installment on 2026-04-10), plus a few more areas may use.
 */
export type EventObject =
  | 'activity' | 'deal' | 'lead' | 'note' | 'organization' | 'person'
  | 'pipeline' | 'product' | 'stage' | 'user'
  | 'project' | 'task' | 'board' | 'phase' | 'deal_product' | 'deal_installment'
  | (string & {});

export interface SandboxEvent {
  /** Monotonic sequence number, per state instance. */
  seq: number;
  action: EventAction;
  object: EventObject;
  id: string | number;
  /** Current record (null on delete). A copy, safe to keep. */
  data: Record<string, unknown> | null;
  /** Full record before the change (null on create). A copy; diff against data to get changed fields. */
  previous: Record<string, unknown> | null;
  /** User who caused the change (null when the sandbox itself did, e.g. seeding). */
  userId: number | null;
  /** ISO time of the event. */
  time: string;
}

export type EventListener = (event: SandboxEvent) => void;

export class EventBus {
  private listeners = new Set<EventListener>();
  private seq = 0;
  /** Recent events, so tests and later areas can inspect what happened. */
  readonly recent: SandboxEvent[] = [];
  private readonly keep = 1000;

  /** Subscribe; returns an unsubscribe function. */
  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private muted = 0;

  /** Runs fn with no event emitted (seeding: an account's initial data is not a change). */
  mute<T>(fn: () => T): T {
    this.muted++;
    try { return fn(); } finally { this.muted--; }
  }

  emit(e: Omit<SandboxEvent, 'seq' | 'time'>): SandboxEvent | undefined {
    if (this.muted) return undefined;
    const event: SandboxEvent = { ...e, seq: ++this.seq, time: new Date().toISOString() };
    this.recent.push(event);
    if (this.recent.length > this.keep) this.recent.splice(0, this.recent.length - this.keep);
    for (const l of this.listeners) {
      // A failing listener must not break the request that caused the event.
      try { l(event); } catch { /* ignored on purpose */ }
    }
    return event;
  }
}
