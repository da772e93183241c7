import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { cleanEnv, tempConfigDir } from '../helpers/cli.js';

/**
 * What one command line loads. A child node registers an ESM resolve hook (module.register) that
 * reports every resolved URL, runs `main()` of the given build (tsc's per-file dist/main.js, or the
 * bundle users run) for the command line, and prints the URLs.
 */
const HOOK = `
let port;
export async function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  port.postMessage(r.url);
  return r;
}`;

const RUNNER = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { PassThrough, Readable } from 'node:stream';
const { port1, port2 } = new MessageChannel();
const urls = [];
port1.on('message', (u) => urls.push(u));
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}), { data: { port: port2 }, transferList: [port2] });
const args = JSON.parse(process.env.UX_ARGS);
const { main } = await import(process.env.UX_MAIN);
let out = '';
const stdout = new PassThrough().on('data', (d) => (out += d));
const io = { stdin: Readable.from([]), stdout, stderr: stdout, isStdinTTY: false, isStdoutTTY: false, isStderrTTY: false, columns: 0 };
const code = await main(args, io, process.env);
await new Promise((r) => setTimeout(r, 100));
port1.close();
process.stdout.write(JSON.stringify({ code, out, urls }));
`;

export interface Loaded {
  code: number;
  out: string;
  urls: string[];
}

export function loadedBy(mainPath: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Loaded> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', RUNNER], {
      env: { ...cleanEnv({ CRMCTL_CONFIG_DIR: tempConfigDir(), ...extraEnv }), UX_ARGS: JSON.stringify(args), UX_MAIN: pathToFileURL(mainPath).href },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(stdout) as Loaded);
      } catch {
        reject(new Error(`runner failed for ${args.join(' ')}: ${stderr || stdout}`));
      }
    });
  });
}
