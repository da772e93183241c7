import { roleOps } from '../../api/operations/roles.js';
import { UsageError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { defineArea } from '../define-area.js';
import { extension } from '../operation-command.js';
import { get } from './get.js';

export const area = defineArea(roleOps, {
  extend: {
    // Visible pipelines by default, hidden ones with --hidden.
    pipelinesList: extension({
      flags: { hidden: flag.bool({ description: 'list the pipelines hidden from the role (same as --visible false)' }) },
      adjust(_ctx, raw, flags) {
        if (!flags.hidden) return raw;
        if (raw.query.visible !== undefined) throw new UsageError('--hidden and --visible cannot be used together');
        return { ...raw, query: { ...raw.query, visible: false } };
      },
    }),
  },
  commands: [get],
  groups: {
    'roles assignments': 'Users assigned to a role',
    'roles settings': 'Default visibility settings of a role',
    'roles pipelines': 'Pipelines a role can see',
  },
});
