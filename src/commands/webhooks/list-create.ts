import { callOperation, recordsOf } from '../../api/call.js';
import type { Operation } from '../../api/operation.js';
import { webhookOperations } from '../../api/operations/webhooks.js';
import type { CommandSpec } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { ValidationError } from '../../core/errors.js';
import { readAll } from '../../core/stdin.js';
import { buildInput, commandFromOperation, type RunHooks } from '../from-operation.js';
import { webhookPreflight } from './checks.js';
import { maskWebhook } from './mask.js';

const op = (id: string) => webhookOperations.find((o) => o.id === id)!;

/** Like runOperation for a non-paged call, with the records masked before anything is printed. */
async function runMasked(ctx: Context, o: Operation, argv: string[], opts: Record<string, unknown>, hooks: RunHooks = {}): Promise<void> {
  const input = await buildInput(ctx, o, argv, opts);
  if (hooks.preflight) await hooks.preflight(ctx, input);
  const { checkFields, renderRecords, renderRecord } = await import('../../output/render.js');
  checkFields(ctx, o.cli.fields);
  const { envelope } = await callOperation(await ctx.http(), o, input);
  const data = recordsOf(o, envelope);
  const render = { columns: o.cli.columns, fields: o.cli.fields };
  if (Array.isArray(data)) await renderRecords(ctx, data.map(maskWebhook), render);
  else await renderRecord(ctx, maskWebhook(data), render);
}

const listOp = op('webhooks.list');
export const listCommand: CommandSpec = {
  ...commandFromOperation(listOp),
  generated: false,
  run: (ctx, { args, opts }) => runMasked(ctx, listOp, args, opts),
};

const createOp = op('webhooks.create');
const generatedCreate = commandFromOperation(createOp);
export const createCommand: CommandSpec = {
  ...generatedCreate,
  generated: false,
  options: [
    ...(generatedCreate.options ?? []),
    { flags: '--auth-password-stdin', description: 'read the basic-auth password from stdin (keeps it out of shell history)' },
  ],
  async run(ctx, { args, opts }) {
    const o = { ...opts };
    if (o.authPasswordStdin) {
      if (o.authPassword !== undefined) throw new ValidationError([{ field: '--auth-password-stdin', rule: 'cannot be combined with --auth-password' }]);
      const secret = (await readAll(ctx.io.stdin)).replace(/\r?\n$/, '');
      if (!secret) throw new ValidationError([{ field: '--auth-password-stdin', rule: 'stdin was empty; pipe the password in' }]);
      o.authPassword = secret;
    }
    delete o.authPasswordStdin;
    await runMasked(ctx, createOp, args, o, { preflight: webhookPreflight });
  },
};
