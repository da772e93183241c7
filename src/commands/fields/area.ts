import type { CustomFieldItemType, Operation } from '../../api/operation.js';
import { defineArea } from '../define-area.js';
import type { CommandExtension } from '../operation-command.js';
import { optionLabels } from './create.js';
import { addOptions, deleteOptions, updateOptions } from './options.js';

/** The commands of one custom-field area (organization, deal, person, product, project fields): generated from its table, with friendly option flags (the checks that read the account are the operations': src/api/checks/fields.ts). */
export function fieldArea(table: Record<string, Operation> & { get: Operation }, command: string, noun: CustomFieldItemType) {
  const extend: Record<string, CommandExtension> = {
    create: optionLabels,
    addOptions: addOptions(),
    updateOptions: updateOptions(),
    deleteOptions: deleteOptions(),
  };
  // A change to the fields makes the cached field names (src/names) stale: the next command reads them again.
  const forget: NonNullable<CommandExtension['after']> = {
    calls: [],
    run: async (ctx) => (await import('../../names/catalog.js')).forgetFields(ctx, noun),
  };
  for (const [key, op] of Object.entries(table)) if (op.method !== 'GET') extend[key] = { ...extend[key], after: forget };
  return defineArea(table, {
    extend,
    groups: { [`${command} options`]: `Options of enum and set ${noun} fields (add, relabel, delete; all or nothing)` },
  });
}
