import { mailboxOps } from '../../api/operations/mailbox.js';
import { defineArea } from '../define-area.js';
import { messageGet } from './message-get.js';

export const area = defineArea(mailboxOps, {
  commands: [messageGet],
  groups: {
    'mailbox threads': 'Mail threads: list by folder, show, messages, update, delete',
    'mailbox messages': 'Mail messages: show one, optionally with its body',
  },
});
