import { mailboxOps } from '../../api/operations/mailbox.js';
import type { CommandSpec } from '../../core/command.js';
import { defineArea } from '../define-area.js';
import { collectParams, commandFromOperation } from '../operation-command.js';
import { runOperation } from '../run-operation.js';
import { threadUpdatePreflight } from './checks.js';

const { messagesGet } = mailboxOps;

/** `mailbox messages get ID [--body]`: a plain switch instead of --include-body 0|1; with it the table shows the body too. */
const messageGet: CommandSpec = {
  ...commandFromOperation(messagesGet),
  options: [{ flags: '--body', description: 'include the full message body (include_body=1); otherwise only snippet and body_url' }],
  async run(ctx, { args, opts }) {
    const { id } = await collectParams(ctx, messagesGet, args);
    const columns = opts.body ? [...(messagesGet.cli.columns ?? []), 'body'] : messagesGet.cli.columns;
    await runOperation(ctx, messagesGet, { params: { id: id! }, query: opts.body ? { include_body: 1 } : {} }, { columns });
  },
};

export const area = defineArea(mailboxOps, {
  extend: { threadsUpdate: { preflight: threadUpdatePreflight } },
  commands: [messageGet],
  groups: {
    'mailbox threads': 'Mail threads: list by folder, show, messages, update, delete',
    'mailbox messages': 'Mail messages: show one, optionally with its body',
  },
});
