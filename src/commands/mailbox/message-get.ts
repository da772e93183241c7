import { mailboxOps } from '../../api/operations/mailbox.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import { collectParams, commandFromOperation } from '../operation-command.js';
import { runOperation } from '../run-operation.js';

const { messagesGet } = mailboxOps;

/** `mailbox messages get ID [--body]`: a plain switch instead of --include-body 0|1; with it the table shows the body too. */
export const messageGet = defineCommand({
  ...commandFromOperation(messagesGet),
  flags: { body: flag.bool({ description: 'include the full message body (include_body=1); otherwise only snippet and body_url' }) },
  async run(ctx, { args, flags }) {
    const { id } = await collectParams(ctx, messagesGet, args);
    const columns = flags.body ? [...(messagesGet.cli.columns ?? []), 'body'] : messagesGet.cli.columns;
    await runOperation(ctx, messagesGet, { params: { id: id! }, query: flags.body ? { include_body: 1 } : {} }, { columns });
  },
});
