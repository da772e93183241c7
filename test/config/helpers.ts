import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxFixture } from '../helpers/sandbox.js';

/** A call to the account's own API as the fixture's admin; the `data` of the answer. */
export async function api(fx: SandboxFixture, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${fx.sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: unknown };
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

export const tempDir = (prefix = 'crmctl-config-'): string => mkdtempSync(join(tmpdir(), prefix));

/** Every file under a directory (relative path → text). */
export function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p, `${rel}${name}/`);
      else out[`${rel}${name}`] = readFileSync(p, 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

export const WEBHOOK_PASSWORD = 'hook-secret-5f1c9a';

/**
 * Sandbox A as an admin leaves it after a day of changes: a pipeline with stages (one rotting), a
 * deal field with options, a label, a role with a setting, a webhook with a password and a filter.
 * The seed's lead and project filters (conditions the interface does not describe) are removed, so
 * everything pulled can be applied elsewhere; the seed's webhooks stay (they apply too). The seed's
 * goals are removed too: the tests of goals (goals.test.ts) make their own.
 */
export async function modifyA(fx: SandboxFixture): Promise<void> {
  for (const t of ['person', 'company', 'team']) for (const g of (await api(fx, 'GET', `/api/v1/goals/find?assignee.type=${t}`)).goals) await api(fx, 'DELETE', `/api/v1/goals/${g.id}`);
  for (const f of await api(fx, 'GET', '/api/v1/filters')) if (f.type === 'leads' || f.type === 'projects') await api(fx, 'DELETE', `/api/v1/filters/${f.id}`);
  const p = await api(fx, 'POST', '/api/v2/pipelines', { name: 'Renewals' });
  await api(fx, 'POST', '/api/v2/stages', { name: 'Notice', pipeline_id: p.id, deal_probability: 30 });
  await api(fx, 'POST', '/api/v2/stages', { name: 'Signed', pipeline_id: p.id, deal_probability: 90, is_deal_rot_enabled: true, days_to_rotten: 14 });
  await api(fx, 'POST', '/api/v2/dealFields', { field_name: 'Region', field_type: 'enum', options: [{ label: 'North' }, { label: 'South' }] });
  await api(fx, 'POST', '/api/v1/leadLabels', { name: 'Partner', color: 'green' });
  const role = await api(fx, 'POST', '/api/v1/roles', { name: 'Field sales', parent_role_id: 2 });
  await api(fx, 'POST', `/api/v1/roles/${role.id}/settings`, { setting_key: 'deal_default_visibility', value: 7 });
  await api(fx, 'PUT', `/api/v1/roles/${role.id}/pipelines`, { visible_pipeline_ids: { add: [p.id], remove: [1] } });
  await api(fx, 'POST', '/api/v1/webhooks', {
    name: 'Deals to ERP', subscription_url: 'http://127.0.0.1:9/crm', event_action: 'change', event_object: 'deal', http_auth_user: 'crm', http_auth_password: WEBHOOK_PASSWORD,
  });
  await api(fx, 'POST', '/api/v1/filters', {
    name: 'Big renewals', type: 'deals', conditions: { glue: 'and', conditions: [{ glue: 'and', conditions: [{ object: 'deal', field_id: 2, operator: '>', value: 5000 }] }, { glue: 'or', conditions: [] }] },
  });
}

/** Moves B's id counters on, so that the records apply creates there get other ids than in A. */
export async function shiftIds(fx: SandboxFixture): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const p = await api(fx, 'POST', '/api/v2/pipelines', { name: `Scratch ${i}` });
    const s = await api(fx, 'POST', '/api/v2/stages', { name: 'Scratch', pipeline_id: p.id });
    await api(fx, 'DELETE', `/api/v2/stages/${s.id}`);
    await api(fx, 'DELETE', `/api/v2/pipelines/${p.id}`);
    const r = await api(fx, 'POST', '/api/v1/roles', { name: `Scratch ${i}` });
    await api(fx, 'DELETE', `/api/v1/roles/${r.id}`);
  }
}

/** Requests that change something (the log also holds reads). */
export const writes = <R extends { method: string }>(rs: R[]): R[] => rs.filter((r) => r.method !== 'GET');
