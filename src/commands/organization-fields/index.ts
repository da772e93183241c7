import { organizationFieldOps } from '../../api/operations/organization-fields.js';
import { defineArea } from '../define-area.js';
import { fieldPreflight } from './checks.js';
import { optionLabels } from './create.js';
import { addOptions, deleteOptions, updateOptions } from './options.js';

export const area = defineArea(organizationFieldOps, {
  extend: {
    create: { ...optionLabels, preflight: fieldPreflight },
    update: { preflight: fieldPreflight },
    addOptions,
    updateOptions,
    deleteOptions,
  },
  groups: { 'organization-fields options': 'Options of enum and set organization fields (add, relabel, delete; all or nothing)' },
});
