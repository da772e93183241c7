import { webhookOps } from '../../api/operations/webhooks.js';
import { ValidationError } from '../../core/errors.js';
import { readAll } from '../../core/stdin.js';
import { defineArea } from '../define-area.js';
import { listenCommand } from './listen.js';
import { maskWebhook } from './mask.js';

/** Passwords of basic auth never reach the screen or a pipe. */
async function* masked(records: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  for await (const r of records) yield maskWebhook(r);
}

export const area = defineArea(webhookOps, {
  extend: {
    list: { present: masked },
    create: {
      options: [{ flags: '--auth-password-stdin', description: 'read the basic-auth password from stdin (keeps it out of shell history)' }],
      async adjust(ctx, raw, opts) {
        if (!opts.authPasswordStdin) return raw;
        if (opts.authPassword !== undefined) throw new ValidationError([{ field: '--auth-password-stdin', rule: 'cannot be combined with --auth-password' }]);
        const secret = (await readAll(ctx.io.stdin)).replace(/\r?\n$/, '');
        if (!secret) throw new ValidationError([{ field: '--auth-password-stdin', rule: 'stdin was empty; pipe the password in' }]);
        return { ...raw, body: { ...(raw.body as object), http_auth_password: secret } };
      },
      present: masked,
    },
  },
  commands: [listenCommand],
});
