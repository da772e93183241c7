/**
 * The operation tables backup and restore use, loaded when first needed (a command loads only the
 * tables of the kinds it touches): one place for both plans (read-plan.ts, restore-plan.ts).
 */
export const ops = {
  deals: () => import('../api/operations/deals.js').then((m) => m.dealOps),
  leads: () => import('../api/operations/leads.js').then((m) => m.leadOps),
  persons: () => import('../api/operations/persons.js').then((m) => m.personOps),
  orgs: () => import('../api/operations/organizations.js').then((m) => m.organizationOps),
  products: () => import('../api/operations/products.js').then((m) => m.productOps),
  projects: () => import('../api/operations/projects.js').then((m) => m.projectOps),
  tasks: () => import('../api/operations/tasks.js').then((m) => m.taskOps),
  activities: () => import('../api/operations/activities.js').then((m) => m.activityOps),
  notes: () => import('../api/operations/notes.js').then((m) => m.noteOps),
  callLogs: () => import('../api/operations/call-logs.js').then((m) => m.callLogOps),
  files: () => import('../api/operations/files.js').then((m) => m.fileOps),
};
