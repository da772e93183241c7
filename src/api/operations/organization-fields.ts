import { CONTACT_FIELD_SCOPES, fieldTableWithV1, type FieldEntity } from './field-api.js';

export const ORGANIZATION_FIELDS = { command: 'organization-fields', area: 'organizationFields', noun: 'organization', ...CONTACT_FIELD_SCOPES } satisfies FieldEntity;

export const organizationFieldOps = fieldTableWithV1(ORGANIZATION_FIELDS);
