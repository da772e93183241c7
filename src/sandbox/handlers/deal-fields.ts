import { ok } from '../http/envelope.js';
import { offsetPage } from '../http/paginate.js';
import type { AreaModule } from '../types.js';

/**
 * Deal field metadata (v1 GET /dealFields, vendor spec: cost 20). The interface does not list the
 * DealFields area, but a lead's `channel` "must be one configured for the company (allowed values
 * come from the deal field metadata)", so clients read it here.
 */
export const dealFieldsArea: AreaModule = {
  name: 'deal-fields',
  routes: [
    {
      method: 'GET',
      path: '/api/v1/dealFields',
      cost: 20,
      scopes: ['deals:read', 'deals:full', 'deal-fields:full', 'admin'],
      handler: (req, ctx) => {
        const page = offsetPage(ctx.state.dealFields.all(), req.query);
        return ok(page.data, page.additional_data);
      },
    },
  ],
};
