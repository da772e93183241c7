import { activityFieldOps } from '../../api/operations/activity-fields.js';
import { defineArea } from '../define-area.js';
import { fieldIdView } from '../fields/id-column.js';

/** Activity field metadata is read-only: list and get, both generated; the table shows each field's numeric id. */
export const area = defineArea(activityFieldOps, { extend: { list: { view: fieldIdView(activityFieldOps.listV1) } } });
