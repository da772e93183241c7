#!/usr/bin/env node
// End-to-end demo with no human at the keyboard: start the sandbox, log in through the real
// loopback OAuth flow (this script plays the browser), create labels and leads, list them, apply a
// pipeline with deals from docs/fixtures/sales.yaml and destroy it.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, crmctl, freePort, startSandboxProcess } from './lib/processes.mjs';

const env = { ...process.env, CRMCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'crmctl-demo-')), NO_COLOR: process.env.NO_COLOR };
delete env.CRMCTL_ACCESS_TOKEN;
delete env.CRMCTL_API_TOKEN;
const say = (line) => process.stdout.write(`${line}\n`);

async function step(args, { show = true } = {}) {
  say(`\n$ crmctl ${args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}`);
  const r = await crmctl(args, env);
  if (show) process.stdout.write(r.stdout);
  if (r.stderr.trim()) process.stdout.write(r.stderr.replace(/^/gm, '  (stderr) '));
  if (r.code !== 0) throw new Error(`crmctl ${args.join(' ')} exited ${r.code}`);
  return r.stdout;
}

/** `crmctl auth login --no-browser`, with this script following the printed URL like a browser would. */
async function login(profile) {
  say(`\n$ crmctl auth login --profile ${profile} --no-browser`);
  const child = spawn(process.execPath, [BIN, 'auth', 'login', '--profile', profile, '--no-browser', '--timeout', '60'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  const done = new Promise((resolve) => child.on('close', resolve));
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.on('close', (code) => reject(new Error(`login exited ${code}: ${err}`)));
  });
  say(`  (browser) GET ${url.replace(/state=[^&]+/, 'state=…')}`);
  const consent = await fetch(url, { redirect: 'manual' });
  const callback = consent.headers.get('location');
  say(`  (browser) consent auto-approved → redirected to ${callback.replace(/code=[^&]+/, 'code=…').replace(/state=[^&]+/, 'state=…')}`);
  const page = await fetch(callback);
  say(`  (browser) callback page: ${page.status}`);
  const code = await done;
  child.stdin.end();
  process.stdout.write(err.split('\n').filter((l) => /Logged in/.test(l)).map((l) => `  (stderr) ${l}\n`).join(''));
  if (code !== 0) throw new Error(`login exited ${code}: ${err}`);
}

const callbackPort = await freePort();
say(`$ crmctl sandbox start --port 0 --auto-approve --callback-port ${callbackPort} &`);
const sb = await startSandboxProcess(['--port', '0', '--auto-approve', '--callback-port', String(callbackPort), '--seed', 'demo'], env);
say(`  sandbox at ${sb.info.url}, profile "${sb.info.profile}" set up (client id ${sb.info.client_id})`);
try {
  await login('sandbox');
  await step(['auth', 'status', '--profile', 'sandbox']);
  const vip = JSON.parse(await step(['lead-labels', 'create', '--profile', 'sandbox', '--name', 'VIP', '--color', 'purple', '--json']));
  await step(['lead-labels', 'list', '--profile', 'sandbox']);
  await step(['leads', 'create', '--profile', 'sandbox', '--title', 'Demo: Acme expansion', '--organization-id', '1', '--value-amount', '12000', '--value-currency', 'EUR', '--label-ids', vip.id, '--output', 'tsv', '--fields', 'id,title']);
  await step(['leads', 'create', '--profile', 'sandbox', '--title', 'Demo: Globex pilot', '--person-id', '2', '--output', 'tsv', '--fields', 'id,title']);
  await step(['leads', 'list', '--profile', 'sandbox', '--output', 'table']);
  const leads = JSON.parse(await step(['leads', 'list', '--profile', 'sandbox', '--json', '--fields', 'id,title,value'], { show: true }));
  if (!leads.some((l) => l.title === 'Demo: Acme expansion')) throw new Error('the created lead is not listed');
  // A sales setup from fixtures: a pipeline with stages, products, an organization, deals and a call.
  const state = join(env.CRMCTL_CONFIG_DIR, 'demo-state.json');
  await step(['apply', '--profile', 'sandbox', '-f', 'docs/fixtures/sales.yaml', '--state', state]);
  const deals = await step(['deals', 'list', '--profile', 'sandbox', '--output', 'table', '--status', 'open']);
  if (!deals.includes('Initech rollout')) throw new Error('the deal from the fixtures is not listed');
  await step(['destroy', '--profile', 'sandbox', '--state', state, '--yes']);
  say('\nDemo finished: logged in through the loopback OAuth flow, created a label and two leads, listed them as a table and as JSON, applied a pipeline with deals from fixtures and removed it again.');
} finally {
  await sb.stop();
}
