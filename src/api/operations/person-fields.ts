import { CONTACT_FIELD_SCOPES, fieldTableWithV1, type FieldEntity } from './field-api.js';

export const PERSON_FIELDS = { command: 'person-fields', area: 'personFields', noun: 'person', ...CONTACT_FIELD_SCOPES } satisfies FieldEntity;

export const personFieldOps = fieldTableWithV1(PERSON_FIELDS);
