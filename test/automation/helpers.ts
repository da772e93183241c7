import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxFixture } from '../helpers/sandbox.js';

/** A fresh folder for output, checkpoint, journal and results files. */
export function workDir(): string {
  return mkdtempSync(join(tmpdir(), 'crmctl-automation-'));
}

/** Calls a control endpoint of the fixture's sandbox. */
export async function control(fx: SandboxFixture, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${fx.sandbox.url}/__sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Inserts N synthetic leads through the bulk control endpoint. */
export async function bulkLeads(fx: SandboxFixture, count: number): Promise<void> {
  const r = await control(fx, 'POST', 'bulk', { collection: 'leads', count });
  if (r.status !== 200) throw new Error(`bulk insert failed: ${JSON.stringify(r.body)}`);
}

export const ndjson = (text: string): any[] => text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
