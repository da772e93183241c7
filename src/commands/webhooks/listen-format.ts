import { safeText } from '../../output/safe-text.js';

// What `webhooks listen` prints per event: the raw payload as one JSON line when piped,
// a one-line summary on a terminal. Both payload versions (2.0 and 1.0) are understood.

const V1_ACTIONS: Record<string, string> = { added: 'create', updated: 'change', merged: 'change', deleted: 'delete' };

export interface EventSummary {
  action: string;
  object: string;
  id: string;
  time: string;
  version: string;
  webhookId: string;
  attempt: number;
}

export function summarize(payload: unknown): EventSummary {
  const p = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>;
  const meta = (p.meta && typeof p.meta === 'object' ? p.meta : {}) as Record<string, unknown>;
  const str = (v: unknown) => (v === undefined || v === null ? '?' : String(v));
  if (meta.version === '2.0' || 'entity' in meta) {
    return {
      action: str(meta.action), object: str(meta.entity), id: str(meta.entity_id), time: str(meta.timestamp),
      version: '2.0', webhookId: str(meta.webhook_id), attempt: Number(meta.attempt ?? 1),
    };
  }
  const ts = typeof meta.timestamp === 'number' ? new Date(meta.timestamp * 1000).toISOString() : str(meta.timestamp);
  return {
    action: V1_ACTIONS[String(meta.action)] ?? str(meta.action), object: str(meta.object), id: str(meta.id), time: ts,
    version: '1.0', webhookId: str(meta.webhook_id), attempt: Number(p.retry ?? 0) + 1,
  };
}

export function summaryLine(s: EventSummary): string {
  const retry = s.attempt > 1 ? `  (attempt ${s.attempt})` : '';
  // Whoever can post to the listener chooses these words: shown safe on the terminal (output/safe-text.ts).
  return safeText(`${s.time}  ${s.action.padEnd(6)}  ${s.object.padEnd(12)}  ${s.id}  webhook ${s.webhookId} v${s.version}${retry}`);
}
