import type { Operation } from '../operation.js';
import { leadOperations } from './leads.js';
import { leadLabelOperations } from './lead-labels.js';
import { dealFieldOperations } from './deal-fields.js';
import { personOperations } from './persons.js';
import { noteOperations } from './notes.js';
import { projectOperations } from './projects.js';
import { phaseOperations } from './phases.js';
import { mailboxOperations } from './mailbox.js';
import { subscriptionOperations } from './subscriptions.js';
import { dealInstallmentOperations } from './deal-installments.js';
import { goalOperations } from './goals.js';
import { roleOperations } from './roles.js';
import { permissionSetOperations } from './permission-sets.js';
import { legacyTeamOperations } from './legacy-teams.js';
import { activityTypeOperations } from './activity-types.js';
import { activityFieldOperations } from './activity-fields.js';
import { organizationFieldOperations } from './organization-fields.js';
import { webhookOperations } from './webhooks.js';

/** Every operation of every area: docs, completions and the coverage/conformance tests read this. Never imported at start-up. */
export const ALL_OPERATIONS: Operation[] = [
  ...leadOperations,
  ...leadLabelOperations,
  ...dealFieldOperations,
  ...personOperations,
  ...noteOperations,
  ...projectOperations,
  ...phaseOperations,
  ...mailboxOperations,
  ...subscriptionOperations,
  ...dealInstallmentOperations,
  ...goalOperations,
  ...roleOperations,
  ...permissionSetOperations,
  ...legacyTeamOperations,
  ...activityTypeOperations,
  ...activityFieldOperations,
  ...organizationFieldOperations,
  ...webhookOperations,
];
