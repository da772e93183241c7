import { projectOperations } from '../../api/operations/projects.js';
import type { AreaModule, CommandSpec } from '../../core/command.js';
import { commandFromOperation, runOperation } from '../from-operation.js';
import { projectPreflight } from './checks.js';
import { customFieldOption, foldCustomFields } from './custom-fields.js';
import { permittedUsersCommand } from './permitted-users.js';

const op = (id: string) => projectOperations.find((o) => o.id === id)!;
const generated = projectOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation);

/** create/update: the generated command plus --custom-field KEY=VALUE and the board/phase check. */
function withCustomFields(id: string): CommandSpec {
  const operation = op(id);
  const base = commandFromOperation(operation);
  return {
    ...base,
    generated: false,
    options: [...(base.options ?? []), customFieldOption],
    async run(ctx, { args, opts }) {
      const folded = await foldCustomFields(ctx, opts);
      await runOperation(ctx, operation, args, folded, { preflight: projectPreflight });
    },
  };
}

export const area: AreaModule = {
  commands: [...generated, withCustomFields('projects.create'), withCustomFields('projects.update'), permittedUsersCommand],
};
