import { fieldTableWithV1, type FieldEntity } from './field-api.js';

/** Deal fields; leads use them too (they have no schema of their own), and a lead's channel is one of their options. */
export const DEAL_FIELDS: FieldEntity = {
  command: 'deal-fields',
  area: 'dealFields',
  noun: 'deal',
  read: ['deals:read', 'deals:full', 'admin', 'deal-fields:full'],
  create: ['admin', 'deal-fields:full'],
  patch: ['deals:full', 'admin', 'deal-fields:full'],
  remove: ['admin', 'deal-fields:full'],
  important: true,
  v1: { read: ['deals:read', 'deals:full', 'deal-fields:full', 'admin'], write: ['deal-fields:full', 'admin'] },
};

export const dealFieldOps = fieldTableWithV1({ ...DEAL_FIELDS, v1: DEAL_FIELDS.v1! });
