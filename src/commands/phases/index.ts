import { phaseOps } from '../../api/operations/phases.js';
import { defineArea } from '../define-area.js';
import { deletePreflight, phasePreflight } from './checks.js';

/** Generated verbs; the writes first check the account (order_nr range, a phase that still holds projects). */
export const area = defineArea(phaseOps, {
  extend: { create: { preflight: phasePreflight }, update: { preflight: phasePreflight }, delete: { preflight: deletePreflight } },
});
