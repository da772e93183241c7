import { webhookOps } from '../../api/operations/webhooks.js';
import { ValidationError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { readAll } from '../../core/stdin.js';
import { defineArea } from '../define-area.js';
import { extension } from '../operation-command.js';
import { listenCommand } from './listen.js';

// Basic-auth passwords are masked by the output path itself (src/output/secrets.ts), for every command.

export const area = defineArea(webhookOps, {
  extend: {
    create: extension({
      flags: { authPasswordStdin: flag.bool({ description: 'read the basic-auth password from stdin (keeps it out of shell history)' }) },
      async adjust(ctx, raw, flags, tableOpts) {
        if (!flags.authPasswordStdin) return raw;
        if (tableOpts.authPassword !== undefined) throw new ValidationError([{ field: '--auth-password-stdin', rule: 'cannot be combined with --auth-password' }]);
        const secret = (await readAll(ctx.io.stdin)).replace(/\r?\n$/, '');
        if (!secret) throw new ValidationError([{ field: '--auth-password-stdin', rule: 'stdin was empty; pipe the password in' }]);
        return { ...raw, body: { ...(raw.body as object), http_auth_password: secret } };
      },
    }),
  },
  commands: [listenCommand],
});
