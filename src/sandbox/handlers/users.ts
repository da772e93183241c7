import { ok } from '../http/envelope.js';
import { offsetPage } from '../http/paginate.js';
import type { AreaModule } from '../types.js';

/**
 * Users are not an area of the interface, but clients need "who am I" after login (the vendor's own
 * app generator calls GET /v1/users/me) and a list to pick owners and assignees from. Costs and scopes
 * from the vendor's v1 OpenAPI: /users/me 2 (base), /users 20 (users:read).
 */
export const usersArea: AreaModule = {
  name: 'users',
  routes: [
    {
      method: 'GET',
      path: '/api/v1/users/me',
      cost: 2,
      scopes: ['base'],
      handler: (req, ctx) => ok({ ...req.user, company_id: ctx.state.company.id, company_name: ctx.state.company.name, company_domain: ctx.state.company.domain }),
    },
    {
      method: 'GET',
      path: '/api/v1/users',
      cost: 20,
      scopes: ['users:read'],
      handler: (req, ctx) => {
        const page = offsetPage(ctx.state.users.all(), req.query);
        return ok(page.data, page.additional_data);
      },
    },
  ],
};
