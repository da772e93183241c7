import type { AreaModule } from '../core/command.js';

export type AreaGroup = 'Sales work' | 'Admin and configuration' | 'Automation' | 'Setup';

export interface AreaEntry {
  name: string;
  summary: string;
  aliases?: string[];
  group: AreaGroup;
  /** Loaded only when the command line names this area (or docs are generated). */
  load(): Promise<AreaModule>;
}

/**
 * Every top-level command, in help order. Only names and summaries live here so that
 * `crmctl --help` loads nothing else; each area's commands are imported on demand.
 */
export const AREAS: AreaEntry[] = [
  { name: 'leads', summary: 'Leads: list, create, update, archive, search, convert to deals', group: 'Sales work', load: () => import('./leads/index.js').then((m) => m.area) },
  { name: 'lead-labels', aliases: ['labels'], summary: 'Lead labels: list, create, update, delete', group: 'Sales work', load: () => import('./lead-labels/index.js').then((m) => m.area) },
  { name: 'sandbox', summary: 'Run the local emulator of the service', group: 'Setup', load: () => import('./sandbox/index.js').then((m) => m.area) },
];

export function findArea(name: string): AreaEntry | undefined {
  return AREAS.find((a) => a.name === name || a.aliases?.includes(name));
}
