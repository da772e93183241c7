// Every area of the emulated service. Adding an area = one file exporting an
// AreaModule + one line here (see ../README.md).
import type { AreaModule } from '../types.js';
import { leadLabelsArea } from './lead-labels.js';
import { leadsArea } from './leads/index.js';
import { fieldsArea } from './fields.js';
import { usersArea } from './users.js';
import { referenceListsArea } from './reference-lists.js';
import { personsArea } from './persons.js';
import { notesArea } from './notes/index.js';
import { projectsArea } from './projects.js';
import { phasesArea } from './phases.js';
import { mailboxArea } from './mailbox/index.js';
import { subscriptionsArea } from './subscriptions.js';
import { dealInstallmentsArea } from './deal-installments.js';
import { goalsArea } from './goals/index.js';
import { rolesArea } from './roles/index.js';
import { permissionSetsArea } from './permission-sets.js';
import { legacyTeamsArea } from './legacy-teams.js';
import { activityTypesArea } from './activity-types.js';
import { activityFieldsArea } from './activity-fields.js';
import { webhooksArea } from './webhooks/index.js';
import { pipelinesArea } from './pipelines.js';
import { dealsArea } from './deals/index.js';
import { organizationsArea } from './organizations/index.js';
import { activitiesArea } from './activities/index.js';
import { productsArea } from './products/index.js';
import { filtersArea } from './filters/index.js';
import { itemSearchArea } from './item-search.js';
import { accountListsArea } from './account-lists.js';
import { accountExtrasArea } from './account-extras.js';
import { tasksArea } from './tasks.js';
import { filesArea } from './files.js';

export const areas: AreaModule[] = [
  fieldsArea,
  leadsArea,
  leadLabelsArea,
  usersArea,
  referenceListsArea,
  personsArea,
  notesArea,
  projectsArea,
  phasesArea,
  mailboxArea,
  subscriptionsArea,
  dealInstallmentsArea,
  goalsArea,
  rolesArea,
  permissionSetsArea,
  legacyTeamsArea,
  activityTypesArea,
  activityFieldsArea,
  webhooksArea,
  pipelinesArea,
  dealsArea,
  organizationsArea,
  activitiesArea,
  productsArea,
  filtersArea,
  itemSearchArea,
  accountListsArea,
  accountExtrasArea,
  tasksArea,
  filesArea,
];
