import { rowsOf, type Operation } from '../operation.js';
import { activityFieldOps } from './activity-fields.js';
import { productOps } from './products.js';
import { searchOps } from './search.js';
import { recentOps } from './recents.js';
import { projectFieldOps } from './project-fields.js';
import { productFieldOps } from './product-fields.js';
import { personFieldOps } from './person-fields.js';
import { noteFieldOps } from './note-fields.js';
import { leadSourceOps } from './lead-sources.js';
import { leadFieldOps } from './lead-fields.js';
import { filterOps } from './filters.js';
import { activityOps } from './activities.js';
import { activityTypeOps } from './activity-types.js';
import { boardOps } from './boards.js';
import { currencyOps } from './currencies.js';
import { dealFieldOps } from './deal-fields.js';
import { dealInstallmentOps } from './deal-installments.js';
import { dealOps } from './deals.js';
import { goalOps } from './goals.js';
import { leadLabelOps } from './lead-labels.js';
import { leadOps } from './leads.js';
import { legacyTeamOps } from './legacy-teams.js';
import { mailboxOps } from './mailbox.js';
import { noteOps } from './notes.js';
import { organizationFieldOps } from './organization-fields.js';
import { organizationOps } from './organizations.js';
import { permissionSetOps } from './permission-sets.js';
import { personOps } from './persons.js';
import { phaseOps } from './phases.js';
import { pipelineOps } from './pipelines.js';
import { projectOps } from './projects.js';
import { roleOps } from './roles.js';
import { stageOps } from './stages.js';
import { subscriptionOps } from './subscriptions.js';
import { userOps } from './users.js';
import { webhookOps } from './webhooks.js';
import { taskOps } from './tasks.js';
import { projectTemplateOps } from './project-templates.js';
import { billingOps } from './billing.js';
import { meetingOps } from './meetings.js';
import { fileOps } from './files.js';
import { callLogOps } from './call-logs.js';

/** Every table, keyed by area. Docs, completions, `crmctl mcp` and the contract tests read this; never imported at start-up. */
export const TABLES = {
  activities: activityOps,
  filters: filterOps,
  leadFields: leadFieldOps,
  leadSources: leadSourceOps,
  noteFields: noteFieldOps,
  personFields: personFieldOps,
  productFields: productFieldOps,
  projectFields: projectFieldOps,
  products: productOps,
  recents: recentOps,
  search: searchOps,
  activityFields: activityFieldOps,
  activityTypes: activityTypeOps,
  boards: boardOps,
  currencies: currencyOps,
  dealFields: dealFieldOps,
  dealInstallments: dealInstallmentOps,
  deals: dealOps,
  goals: goalOps,
  leadLabels: leadLabelOps,
  leads: leadOps,
  legacyTeams: legacyTeamOps,
  mailbox: mailboxOps,
  notes: noteOps,
  organizationFields: organizationFieldOps,
  organizations: organizationOps,
  permissionSets: permissionSetOps,
  persons: personOps,
  phases: phaseOps,
  pipelines: pipelineOps,
  projects: projectOps,
  roles: roleOps,
  stages: stageOps,
  subscriptions: subscriptionOps,
  users: userOps,
  webhooks: webhookOps,
  tasks: taskOps,
  projectTemplates: projectTemplateOps,
  billing: billingOps,
  meetings: meetingOps,
  files: fileOps,
  callLogs: callLogOps,
} as const;

export const ALL_OPERATIONS: Operation[] = Object.values(TABLES).flatMap((t) => rowsOf(t as Record<string, Operation>));

const BY_ID = new Map(ALL_OPERATIONS.map((o) => [o.id, o]));

/** The operation with this id (prompt sources, export checkpoints name operations by id). */
export function operationById(id: string): Operation | undefined {
  return BY_ID.get(id);
}
