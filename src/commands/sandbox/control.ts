import type { CommandSpec } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import type { Context } from '../../core/context.js';
import { CliError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { parseFaults } from './faults.js';

/** URL of a running sandbox: --url, else the sandbox profile's auth URL. */
async function sandboxUrl(ctx: Context, url: string | undefined): Promise<string> {
  if (url) return url.replace(/\/$/, '');
  const { getProfile } = await import('../../config/store.js');
  const name = ctx.globals.profile ?? 'sandbox';
  const p = await getProfile(name, ctx.env);
  if (!p?.authUrl) throw new UsageError(`no sandbox URL: give --url or start one with \`crmctl sandbox start\` (profile "${name}" has none)`);
  return p.authUrl.replace(/\/$/, '');
}

async function control(ctx: Context, url: string | undefined, method: string, path: string, body?: unknown): Promise<unknown> {
  const base = await sandboxUrl(ctx, url);
  const { networkReason, rawRequest } = await import('../../http/raw.js');
  let res: Awaited<ReturnType<typeof rawRequest>>;
  try {
    res = await rawRequest(`${base}/__sandbox/${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      transport: ctx.env.CRMCTL_HTTP_TRANSPORT,
    });
  } catch (err) {
    const reason = networkReason(err);
    // Only a refused or unreachable address means no sandbox; anything else keeps its own words.
    const nobody = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ECONNRESET)$/.test(reason);
    throw new CliError(
      nobody ? `No sandbox answers at ${base} (${reason}).` : `The request to the sandbox at ${base} failed: ${reason}.`,
      EXIT.ERROR,
      nobody ? 'Start it with `crmctl sandbox start`, or give its address with --url.' : undefined,
    );
  }
  if (res.status >= 400) throw new CliError(`The sandbox at ${base} answered ${res.status}: ${res.text.slice(0, 300)}`);
  let parsed: unknown;
  try {
    parsed = res.text ? JSON.parse(res.text) : null;
  } catch {
    throw new CliError(`${base} answered ${res.status} with something that is not JSON (${res.text.length} characters): is it a crmctl sandbox?`, EXIT.ERROR, 'Give the sandbox address with --url (crmctl sandbox start prints it).');
  }
  // Control endpoints answer in the service's envelope; what a person wants is its data.
  return parsed && typeof parsed === 'object' && 'data' in parsed ? (parsed as { data: unknown }).data : parsed;
}

const url = flag.string({ value: 'url', description: 'sandbox address (default: the sandbox profile\'s)' });

export const controlCommands: CommandSpec[] = [
  defineCommand({
    path: ['sandbox', 'reset'],
    summary: 'Reset a running sandbox to a seed (all data is replaced)',
    examples: ['crmctl sandbox reset --seed empty --yes'],
    flags: { url, seed: flag.enum(['demo', 'empty'], { value: 'name', default: 'demo', description: 'seed to load' }) },
    async run(ctx, { flags }) {
      await ctx.confirm('Reset the sandbox? All its data is replaced.');
      await control(ctx, flags.url, 'POST', 'reset', { seed: flags.seed });
      ctx.info(`Sandbox reset to seed ${flags.seed}.`);
    },
  }),
  defineCommand({
    path: ['sandbox', 'requests'],
    summary: 'Show the request log of a running sandbox (what reached the service)',
    examples: ['crmctl sandbox requests --output ndjson', 'crmctl sandbox requests --clear'],
    flags: { url, clear: flag.bool({ description: 'empty the log' }) },
    async run(ctx, { flags }) {
      if (flags.clear) {
        await control(ctx, flags.url, 'DELETE', 'requests');
        return;
      }
      const log = await control(ctx, flags.url, 'GET', 'requests');
      const rows = Array.isArray(log) ? log : [];
      const { renderRecords } = await import('../../output/render.js');
      await renderRecords(ctx, rows, { columns: ['seq', 'method', 'path', 'status', 'cost', 'user_id'] });
    },
  }),
  defineCommand({
    path: ['sandbox', 'faults'],
    summary: 'Set the fault rates of a running sandbox (no spec clears them)',
    examples: ['crmctl sandbox faults 5xx=0.1,429=0.05,reset=0.05,latency=10-40', 'crmctl sandbox faults'],
    args: [{ name: 'spec', description: 'rates, e.g. 5xx=0.1,reset=0.05', required: false }],
    flags: { url },
    async run(ctx, { args, flags }) {
      const spec = args[0] ? parseFaults(args[0]) : {};
      const { renderRecord } = await import('../../output/render.js');
      await renderRecord(ctx, await control(ctx, flags.url, 'PUT', 'faults', spec));
    },
  }),
];
