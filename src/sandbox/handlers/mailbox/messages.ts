// One mail message; the body only with include_body=1 (default 0).
import type { RouteDef } from '../../types.js';
import { loadMessage, MAIL_READ, mailOk, presentMessage } from './common.js';

export const messageRoutes: RouteDef[] = [
  {
    method: 'GET', path: '/api/v1/mailbox/mailMessages/{id}', cost: 2, scopes: MAIL_READ,
    handler: (req, ctx) => {
      const withBody = req.query.oneOf('include_body', ['0', '1'] as const) === '1';
      return mailOk(presentMessage(loadMessage(ctx.state, req.userId, req.params.id!), withBody));
    },
  },
];
