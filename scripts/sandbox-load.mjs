#!/usr/bin/env node
// Sandbox under load: N concurrent clients doing mixed CRUD on leads, lead labels and notes for
// LOAD_SECONDS against a sandbox process with a data file. Then checks: no 5xx, no lost write (every
// acknowledged create/update/delete is in the sandbox's state), counts consistent; kill -9 the
// sandbox and check its data file is valid JSON holding every acknowledged write. Prints numbers.
//   LOAD_SECONDS=60 LOAD_CLIENTS=16 node scripts/sandbox-load.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 16);
const server = fileURLToPath(new URL('../dist/sandbox/server-main.js', import.meta.url));
const dataFile = join(mkdtempSync(join(tmpdir(), 'crmctl-load-')), 'state.json');

const child = spawn(process.execPath, [server, '--port', '0', '--data', dataFile, '--seed', 'demo', '--budget-limit', '100000000', '--budget-window', '1'], { stdio: ['ignore', 'pipe', 'inherit'] });
const info = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    const line = out.split('\n').find((l) => l.startsWith('{'));
    if (line) resolve(JSON.parse(line));
  });
  child.once('exit', (c) => reject(new Error(`sandbox exited ${c}`)));
});
const base = new URL(info.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

function call(method, path, body, token) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({ host: base.hostname, port: base.port, method, path, agent, headers: { authorization: `Bearer ${token}`, ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

const tok = await (await fetch(`${info.url}/__sandbox/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user_id: 1, lifetime_sec: SECONDS + 600 }) })).json();
const token = tok.access_token ?? tok.data?.access_token;

const stats = { requests: 0, byStatus: {}, created: new Map(), updated: new Map(), deleted: new Set(), labels: new Set(), notes: new Set() };
const count = (s) => {
  stats.requests++;
  stats.byStatus[s] = (stats.byStatus[s] ?? 0) + 1;
};
const deadline = Date.now() + SECONDS * 1000;
const t0 = Date.now();

async function client(n) {
  let i = 0;
  const mine = [];
  while (Date.now() < deadline) {
    i++;
    const r = Math.random();
    if (r < 0.35 || mine.length === 0) {
      const title = `load ${n}-${i}`;
      const res = await call('POST', '/api/v1/leads', { title, person_id: 1 + (i % 5) }, token);
      count(res.status);
      if (res.status === 201) {
        stats.created.set(res.body.data.id, title);
        mine.push(res.body.data.id);
      }
    } else if (r < 0.55) {
      const id = mine[Math.floor(Math.random() * mine.length)];
      if (stats.deleted.has(id)) continue;
      const title = `load ${n}-${i} (updated)`;
      const res = await call('PATCH', `/api/v1/leads/${id}`, { title }, token);
      count(res.status);
      if (res.status === 200) stats.updated.set(id, title);
    } else if (r < 0.62) {
      const id = mine.pop();
      const res = await call('DELETE', `/api/v1/leads/${id}`, undefined, token);
      count(res.status);
      if (res.status === 200) stats.deleted.add(id);
    } else if (r < 0.7) {
      const res = await call('POST', '/api/v1/leadLabels', { name: `L${n}-${i}`, color: 'green' }, token);
      count(res.status);
      if (res.status === 200 || res.status === 201) stats.labels.add(res.body.data.id);
    } else if (r < 0.78) {
      const id = mine[Math.floor(Math.random() * mine.length)];
      const res = await call('POST', '/api/v1/notes', { content: `note ${n}-${i}`, lead_id: id }, token);
      count(res.status);
      if (res.status === 200 || res.status === 201) stats.notes.add(res.body.data.id);
    } else if (r < 0.9) {
      const res = await call('GET', `/api/v1/leads?limit=50&start=${Math.floor(Math.random() * 200)}`, undefined, token);
      count(res.status);
    } else {
      const id = mine[Math.floor(Math.random() * mine.length)];
      const res = await call('GET', `/api/v1/leads/${id}`, undefined, token);
      count(res.status);
    }
  }
}

await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
const elapsed = (Date.now() - t0) / 1000;

// Verify the state the sandbox holds against every acknowledged write.
const state = await (await fetch(`${info.url}/__sandbox/state/leads`)).json();
const live = new Map(state.data.map((l) => [l.id, l]));
const deleted = new Set((state.deleted ?? []).map((l) => l.id));
let lost = 0;
for (const [id, title] of stats.created) {
  if (stats.deleted.has(id)) {
    if (!deleted.has(id)) lost++;
  } else if (!live.has(id) || live.get(id).title !== (stats.updated.get(id) ?? title)) lost++;
}
const fivexx = Object.entries(stats.byStatus).filter(([s]) => Number(s) >= 500).reduce((a, [, n]) => a + n, 0);

// kill -9 and read the data file as a fresh process would.
child.kill('SIGKILL');
await new Promise((r) => child.once('exit', r));
let fileOk = false;
let _fileLeads = 0;
let fileMissing = 0;
try {
  const saved = JSON.parse(readFileSync(dataFile, 'utf8'));
  const leads = saved.collections?.leads?.records ?? saved.collections?.leads ?? [];
  const ids = new Set((Array.isArray(leads) ? leads : Object.values(leads)).map((l) => l.id ?? l[1]?.id));
  _fileLeads = ids.size;
  for (const id of stats.created.keys()) if (!ids.has(id)) fileMissing++;
  fileOk = true;
} catch (err) {
  console.error(`data file unreadable after kill -9: ${err.message}`);
}
agent.destroy();

const result = {
  clients: CLIENTS,
  seconds: Number(elapsed.toFixed(1)),
  requests: stats.requests,
  requests_per_second: Math.round(stats.requests / elapsed),
  statuses: stats.byStatus,
  server_errors_5xx: fivexx,
  acknowledged_lead_creates: stats.created.size,
  lost_writes: lost,
  data_file_valid_after_kill_9: fileOk,
  acknowledged_creates_missing_from_file: fileMissing,
};
console.log(JSON.stringify(result, null, 2));
process.exitCode = fivexx === 0 && lost === 0 && fileOk && fileMissing === 0 ? 0 : 1;
