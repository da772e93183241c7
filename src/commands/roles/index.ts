import { roleOps } from '../../api/operations/roles.js';
import { UsageError } from '../../core/errors.js';
import { defineArea } from '../define-area.js';
import { get } from './get.js';

export const area = defineArea(roleOps, {
  extend: {
    // Visible pipelines by default, hidden ones with --hidden.
    pipelinesList: {
      options: [{ flags: '--hidden', description: 'list the pipelines hidden from the role (same as --visible false)' }],
      adjust(_ctx, raw, opts) {
        if (!opts.hidden) return raw;
        if (raw.query.visible !== undefined) throw new UsageError('--hidden and --visible cannot be used together');
        return { ...raw, query: { ...raw.query, visible: false } };
      },
    },
  },
  commands: [get],
  groups: {
    'roles assignments': 'Users assigned to a role',
    'roles settings': 'Default visibility settings of a role',
    'roles pipelines': 'Pipelines a role can see',
  },
});
