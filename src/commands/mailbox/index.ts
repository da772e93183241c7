import { mailboxOperations } from '../../api/operations/mailbox.js';
import type { AreaModule, CommandSpec } from '../../core/command.js';
import { commandFromOperation, runOperation } from '../from-operation.js';
import { threadUpdatePreflight } from './checks.js';

const op = (id: string) => mailboxOperations.find((o) => o.id === id)!;

const updateOp = op('mailbox.threads.update');
const threadUpdate: CommandSpec = {
  ...commandFromOperation(updateOp),
  generated: false,
  run: (ctx, { args, opts }) => runOperation(ctx, updateOp, args, opts, { preflight: threadUpdatePreflight }),
};

const messageOp = op('mailbox.messages.get');
/** With --body the table shows the body too (the service sends it only when asked). */
const messageWithBody = { ...messageOp, cli: { ...messageOp.cli, columns: [...(messageOp.cli.columns ?? []), 'body'] } };

/** `mailbox messages get ID [--body]`: a plain switch instead of --include-body 0|1. */
const messageGet: CommandSpec = {
  ...commandFromOperation(messageOp),
  generated: false,
  options: [{ flags: '--body', description: 'include the full message body (include_body=1); otherwise only snippet and body_url' }],
  run: (ctx, { args, opts }) =>
    opts.body ? runOperation(ctx, messageWithBody, args, { includeBody: '1' }) : runOperation(ctx, messageOp, args, {}),
};

export const area: AreaModule = {
  commands: [...mailboxOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation), threadUpdate, messageGet],
  groups: {
    'mailbox threads': 'Mail threads: list by folder, show, messages, update, delete',
    'mailbox messages': 'Mail messages: show one, optionally with its body',
  },
};
