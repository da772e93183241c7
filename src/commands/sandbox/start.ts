import { existsSync, rmSync } from 'node:fs';
import { defineCommand } from '../../core/define-command.js';
import { CliError, UsageError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { parseFaults } from './faults.js';
import type { Loaded } from './from-dir.js';

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
export const startCommand = defineCommand({
  path: ['sandbox', 'start'],
  summary: 'Start the local sandbox (a stateful emulator of the service) and set up a profile for it',
  description:
    'Serves the API, the OAuth consent page and token endpoint, both pagination styles, costs and rate limits,\nfault injection and webhook delivery on 127.0.0.1. Stop it with Ctrl-C.',
  examples: [
    'crmctl sandbox start --seed demo',
    'crmctl sandbox start --port 0 --data ./sandbox.json --auto-approve',
    'crmctl sandbox start --budget 2000 --window 2 --faults 5xx=0.1,429=0.05,reset=0.05,latency=5-30',
    'crmctl sandbox start --from ./acct --seed empty   # a directory crmctl pull --out wrote',
    'crmctl sandbox start --from backups/acme --anonymize   # a backup (crmctl backup --out), people\'s data replaced',
  ],
  flags: {
    port: flag.int({ min: 0, max: 65535, default: 4010, description: 'port on 127.0.0.1 (0 = a free port)' }),
    data: flag.string({ value: 'file', description: 'persist state in this JSON file (atomic writes); loaded when it exists' }),
    from: flag.string({ value: 'dir', description: 'then apply the directory\'s configuration files (as apply -f) and load its sample/*.csv records; or restore a backup (crmctl backup --out) whole' }),
    anonymize: flag.bool({ description: 'with a backup in --from: replace people\'s data (names, e-mails, phones, free text) as pull --sample does' }),
    seed: flag.enum(['demo', 'empty'], { value: 'name', description: 'initial data when there is no data file (default: demo; empty with a backup in --from)' }),
    autoApprove: flag.bool({ description: 'answer the consent page with Allow (demos, CI)' }),
    callbackPort: flag.int({ min: 1, max: 65535, default: 8250, description: 'registered OAuth callback port: http://127.0.0.1:N/callback' }),
    tokenLifetime: flag.int({ min: 1, value: 'seconds', default: 3600, description: 'access token lifetime' }),
    budget: flag.int({ min: 1, value: 'units', default: 100000, description: 'cost units per window before 429' }),
    window: flag.int({ min: 1, value: 'seconds', default: 2, description: 'budget window' }),
    faults: flag.string({ value: 'spec', description: 'fault rates, e.g. 5xx=0.1,429=0.05,reset=0.05,after-commit=0.33,latency=10-50,seed=1' }),
    profile: flag.negated({ description: 'do not create or update the sandbox profile' }),
    profileName: flag.string({ value: 'name', default: 'sandbox', description: 'name of the profile to set up' }),
  },
  async run(ctx, { flags }) {
    const { port, callbackPort } = flags;
    const faults = flags.faults ? parseFaults(flags.faults) : undefined;
    // The directory is read and checked before anything starts: a bad file is exit 2 with nothing running.
    const fromDir = flags.from === undefined ? undefined : await import('./from-dir.js');
    const from = fromDir && flags.from !== undefined ? fromDir.readFromDir(flags.from, ctx.env) : undefined;
    if (flags.anonymize && !from?.backup) {
      throw new UsageError('--anonymize: only with a backup in --from (crmctl backup --out DIR); a pull directory is pseudonymised by pull --sample itself');
    }
    // A backup is a whole account: it goes into a sandbox holding nothing else (the demo's records would mix with it).
    if (from?.backup && flags.seed === 'demo') throw new UsageError(`--seed demo: ${from.dir} is a backup (a whole account); it loads into an empty sandbox`, 'Leave out --seed (or give --seed empty).');
    const seed = flags.seed ?? (from?.backup ? 'empty' : 'demo');
    if (from && flags.data && existsSync(flags.data)) {
      throw new UsageError(`--from: loads into a new sandbox, and ${flags.data} (--data) exists already`, 'Remove the data file, or start without --from to keep using it.');
    }
    const { startSandbox } = await import('../../sandbox/index.js');
    const sandbox = await startSandboxOrExplain(port, () =>
      startSandbox({
        port,
        dataFile: flags.data,
        seed,
        autoApprove: flags.autoApprove,
        tokenLifetimeSec: flags.tokenLifetime,
        budget: { limit: flags.budget, windowSec: flags.window },
        // With --from, faults start once the directory is loaded: they are for the scripts that run next.
        faults: from ? undefined : faults,
        redirectUris: [`http://127.0.0.1:${callbackPort}/callback`],
        log: (line) => ctx.debug(line),
      }),
    );
    // Once it listens, nothing may fail and leave it serving: a script waiting for the JSON line would
    // wait for ever (a corrupt config file failed the profile step after the start). Whatever fails
    // before the line is printed stops the sandbox, so the command exits with the error.
    try {
      let loaded: Loaded | undefined;
      if (fromDir && from) {
        // The source company's contact sync is a switch of the service with no API: set on the sandbox itself.
        const enableContactSync = () => {
          (sandbox.state.company as unknown as Record<string, unknown>).contact_sync_enabled = true;
        };
        loaded = await fromDir.loadFromDir(ctx, sandbox, from, { anonymize: flags.anonymize, enableContactSync });
        if (faults) await fromDir.armFaults(ctx, sandbox.url, faults);
        ctx.io.stderr.write(`${fromDir.loadedText(from, loaded)}\n`);
      }
      const { profileName } = flags;
      if (flags.profile) {
        const { saveProfile } = await import('../../config/store.js');
        await saveProfile(profileName, { kind: 'sandbox', authUrl: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret, callbackPort }, ctx.env);
      }
      const info = { url: sandbox.url, client_id: sandbox.clientId, client_secret: sandbox.clientSecret, callback: `http://127.0.0.1:${callbackPort}/callback`, profile: flags.profile ? profileName : null, ...(loaded ? { loaded } : {}) };
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
    } catch (err) {
      await sandbox.close();
      // A half-loaded data file would be refused by the next --from: it was new, so it goes.
      if (from && flags.data) rmSync(flags.data, { force: true });
      throw err;
    }
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await sandbox.close();
    ctx.info('Sandbox stopped.');
  },
});
