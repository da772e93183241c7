// Helpers shared by scripts/demo.mjs and scripts/bench.mjs: run the built bin, start a sandbox process.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/crmctl.js', import.meta.url));

/** A free TCP port on 127.0.0.1 (the OAuth callback must be known before the sandbox starts). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Runs crmctl and resolves with { code, stdout, stderr }. */
export function crmctl(args, env, input = '') {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Starts `crmctl sandbox start` in the background; resolves once it printed its JSON line. */
export function startSandboxProcess(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, info: JSON.parse(line), stop: () => new Promise((r) => { child.once('close', r); child.kill('SIGTERM'); }) });
    });
    child.on('close', (code) => reject(new Error(`sandbox exited ${code}: ${err}`)));
  });
}

/** Calls the sandbox's control endpoints (/__sandbox/...): resolves with `data`, throws on a refusal. */
export function sandboxControl(url) {
  return async (method, path, body) => {
    const res = await fetch(`${url}/__sandbox/${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
    return json.data;
  };
}
