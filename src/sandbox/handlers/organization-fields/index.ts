// Area module: organization fields — v2 field metadata and option operations, the v1 bulk delete,
// and the v2 stage list the important-fields rule depends on (see stages.ts).
import type { AreaModule } from '../../types.js';
import { create, get, list, removeMany, removeOne, update } from './fields.js';
import { addOptions, deleteOptions, updateOptions } from './options.js';
import { seedOrganizationFields } from './seed.js';
import { stageRoutes } from './stages.js';

// Scopes per operation (the vendor's OpenAPI): reads also with contacts:*; create and delete need
// admin or contact-fields:full; PATCH of a field and the option operations also accept contacts:full.
const READ = ['contacts:read', 'contacts:full', 'admin', 'contact-fields:full'];
const CREATE_DELETE = ['admin', 'contact-fields:full'];
const PATCH = ['contacts:full', 'admin', 'contact-fields:full'];
const OPTIONS = '/api/v2/organizationFields/{field_code}/options';

export const organizationFieldsArea: AreaModule = {
  name: 'organization-fields',
  routes: [
    { method: 'GET', path: '/api/v2/organizationFields', cost: 10, scopes: READ, handler: list },
    { method: 'GET', path: '/api/v2/organizationFields/{field_code}', cost: 1, scopes: READ, handler: get },
    { method: 'POST', path: '/api/v2/organizationFields', cost: 5, scopes: CREATE_DELETE, handler: create },
    { method: 'PATCH', path: '/api/v2/organizationFields/{field_code}', cost: 5, scopes: PATCH, handler: update },
    { method: 'DELETE', path: '/api/v2/organizationFields/{field_code}', cost: 3, scopes: CREATE_DELETE, handler: removeOne },
    { method: 'DELETE', path: '/api/v1/organizationFields', cost: 10, scopes: CREATE_DELETE, handler: removeMany },
    { method: 'POST', path: OPTIONS, cost: 5, scopes: PATCH, handler: addOptions },
    { method: 'PATCH', path: OPTIONS, cost: 5, scopes: PATCH, handler: updateOptions },
    { method: 'DELETE', path: OPTIONS, cost: 3, scopes: PATCH, handler: deleteOptions },
    ...stageRoutes,
  ],
  seed: seedOrganizationFields,
};
