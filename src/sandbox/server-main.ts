// Run the sandbox as its own process (tests and benchmarks spawn this):
//   node dist/sandbox/server-main.js --port 0 --data state.json [--seed demo|empty] [--auto-approve]
//     [--budget-limit N --budget-window SEC --daily-limit N] [--token-lifetime SEC] [--conversion-delay MS]
//     [--faults '{"rate5xx":0.1,"seed":1}'] [--client-id ID --client-secret S] [--redirect-uri URI]...
// Prints one JSON line {url, client_id, client_secret} on stdout once listening.
import { startSandbox } from './index.js';
import type { SandboxOptions } from './types.js';

function parseArgs(argv: string[]): SandboxOptions {
  const o: SandboxOptions = {};
  const redirects: string[] = [];
  let budgetLimit: number | undefined, budgetWindow: number | undefined, dailyLimit: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const num = () => {
      const v = Number(next());
      if (!Number.isFinite(v)) throw new Error(`${a} needs a number`);
      return v;
    };
    switch (a) {
      case '--port': o.port = num(); break;
      case '--data': o.dataFile = next(); break;
      case '--seed': {
        const s = next();
        if (s !== 'demo' && s !== 'empty') throw new Error('--seed must be demo or empty');
        o.seed = s;
        break;
      }
      case '--auto-approve': o.autoApprove = true; break;
      case '--budget-limit': budgetLimit = num(); break;
      case '--budget-window': budgetWindow = num(); break;
      case '--daily-limit': dailyLimit = num(); break;
      case '--token-lifetime': o.tokenLifetimeSec = num(); break;
      case '--conversion-delay': o.conversionDelayMs = num(); break;
      case '--faults': o.faults = JSON.parse(next()) as SandboxOptions['faults']; break;
      case '--client-id': o.clientId = next(); break;
      case '--client-secret': o.clientSecret = next(); break;
      case '--redirect-uri': redirects.push(next()); break;
      case '--verbose': o.log = (l) => process.stderr.write(`${l}\n`); break;
      default: throw new Error(`unknown option ${a}`);
    }
  }
  if (redirects.length) o.redirectUris = redirects;
  if (budgetLimit !== undefined || budgetWindow !== undefined || dailyLimit !== undefined) {
    o.budget = { limit: budgetLimit ?? 100_000, windowSec: budgetWindow ?? 2, ...(dailyLimit !== undefined ? { dailyLimit } : {}) };
  }
  return o;
}

async function main(): Promise<void> {
  let opts: SandboxOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`sandbox: ${(e as Error).message}\n`);
    process.exit(2);
  }
  const sb = await startSandbox(opts);
  process.stdout.write(`${JSON.stringify({ url: sb.url, client_id: sb.clientId, client_secret: sb.clientSecret })}\n`);
  const stop = () => { void sb.close().then(() => process.exit(0)); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`sandbox: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(1);
});
