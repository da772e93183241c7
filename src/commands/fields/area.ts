import type { Operation } from '../../api/operation.js';
import { defineArea } from '../define-area.js';
import { fieldPreflight } from './checks.js';
import { optionLabels } from './create.js';
import { addOptions, deleteOptions, updateOptions } from './options.js';

/** The commands of one custom-field area (organization, deal, person, product, project fields): generated from its table, with friendly option flags and the checks that read the account. */
export function fieldArea(table: Record<string, Operation> & { get: Operation }, command: string, noun: string) {
  const preflight = fieldPreflight(table.get);
  return defineArea(table, {
    extend: {
      create: { ...optionLabels, preflight },
      update: { preflight },
      addOptions: addOptions(table.get),
      updateOptions: updateOptions(table.get),
      deleteOptions: deleteOptions(table.get),
    },
    groups: { [`${command} options`]: `Options of enum and set ${noun} fields (add, relabel, delete; all or nothing)` },
  });
}
