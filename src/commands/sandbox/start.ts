import type { CommandSpec } from '../../core/command.js';
import { CliError, ValidationError } from '../../core/errors.js';
import { parseFaults } from './faults.js';

function int(value: unknown, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new ValidationError([{ field: flag, rule: `must be an integer >= ${min} (got ${JSON.stringify(value)})` }]);
  return n;
}

/** A busy port is a usage problem with a fix, not a crash. */
async function startSandboxOrExplain<T>(port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`Port ${port} on 127.0.0.1 is already in use (another sandbox?).`, 1, 'Stop the other process, or pick another port: --port 0 takes a free one.');
    if (code === 'EACCES') throw new CliError(`Not allowed to listen on port ${port}.`, 1, 'Use a port above 1024, or --port 0.');
    throw err;
  }
}

/** `crmctl sandbox start`: the emulator in the foreground, with a profile pointing at it. */
export const startCommand: CommandSpec = {
  path: ['sandbox', 'start'],
  summary: 'Start the local sandbox (a stateful emulator of the service) and set up a profile for it',
  description:
    'Serves the API, the OAuth consent page and token endpoint, both pagination styles, costs and rate limits,\nfault injection and webhook delivery on 127.0.0.1. Stop it with Ctrl-C.',
  examples: [
    'crmctl sandbox start --seed demo',
    'crmctl sandbox start --port 0 --data ./sandbox.json --auto-approve',
    'crmctl sandbox start --budget 2000 --window 2 --faults 5xx=0.1,429=0.05,reset=0.05,latency=5-30',
  ],
  options: [
    { flags: '--port <n>', description: 'port on 127.0.0.1 (0 = a free port)', defaultValue: '4010' },
    { flags: '--data <file>', description: 'persist state in this JSON file (atomic writes); loaded when it exists' },
    { flags: '--seed <name>', description: 'initial data when there is no data file', choices: ['demo', 'empty'], defaultValue: 'demo' },
    { flags: '--auto-approve', description: 'answer the consent page with Allow (demos, CI)' },
    { flags: '--callback-port <n>', description: 'registered OAuth callback port: http://127.0.0.1:N/callback', defaultValue: '8250' },
    { flags: '--token-lifetime <seconds>', description: 'access token lifetime', defaultValue: '3600' },
    { flags: '--budget <units>', description: 'cost units per window before 429', defaultValue: '100000' },
    { flags: '--window <seconds>', description: 'budget window', defaultValue: '2' },
    { flags: '--faults <spec>', description: 'fault rates, e.g. 5xx=0.1,429=0.05,reset=0.05,after-commit=0.33,latency=10-50,seed=1' },
    { flags: '--no-profile', description: 'do not create or update the sandbox profile' },
    { flags: '--profile-name <name>', description: 'name of the profile to set up', defaultValue: 'sandbox' },
  ],
  async run(ctx, { opts }) {
    const port = int(opts.port, '--port', 0);
    const callbackPort = int(opts.callbackPort, '--callback-port', 1);
    const faults = opts.faults ? parseFaults(String(opts.faults)) : undefined;
    const { startSandbox } = await import('../../sandbox/index.js');
    const sandbox = await startSandboxOrExplain(port, () =>
      startSandbox({
        port,
        dataFile: opts.data as string | undefined,
        seed: opts.seed as 'demo' | 'empty',
        autoApprove: Boolean(opts.autoApprove),
        tokenLifetimeSec: int(opts.tokenLifetime, '--token-lifetime', 1),
        budget: { limit: int(opts.budget, '--budget', 1), windowSec: int(opts.window, '--window', 1) },
        faults,
        redirectUris: [`http://127.0.0.1:${callbackPort}/callback`],
        log: (line) => ctx.debug(line),
      }),
    );
    const profileName = String(opts.profileName);
    if (opts.profile !== false) {
      const { saveProfile } = await import('../../config/store.js');
      await saveProfile(profileName, { kind: 'sandbox', authUrl: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret, callbackPort }, ctx.env);
    }
    const info = { url: sandbox.url, client_id: sandbox.clientId, client_secret: sandbox.clientSecret, callback: `http://127.0.0.1:${callbackPort}/callback`, profile: opts.profile !== false ? profileName : null };
    // One JSON line on stdout when piped (scripts read the URL); a friendly block on a terminal.
    const { renderDocument } = await import('../../output/report.js');
    await renderDocument(ctx, {
      json: info,
      piped: 'ndjson',
      text: [
        `Sandbox listening on ${info.url}`,
        `  OAuth client id:     ${info.client_id}`,
        `  OAuth client secret: ${info.client_secret} (sandbox only)`,
        `  Registered callback: ${info.callback}`,
        info.profile ? `  Profile:             ${info.profile}  →  crmctl auth login --profile ${info.profile}` : '',
        '  Control endpoints:   /__sandbox/{reset,seed,requests,faults,config,state}',
        'Press Ctrl-C to stop.',
      ].filter(Boolean).join('\n'),
    });
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await sandbox.close();
    ctx.info('Sandbox stopped.');
  },
};
