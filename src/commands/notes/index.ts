import { NOTE_CONTENT_MAX, noteOperations } from '../../api/operations/notes.js';
import type { AreaModule, CommandSpec } from '../../core/command.js';
import { commandFromOperation, runOperation, type RunHooks } from '../from-operation.js';
import { notePreflight } from './checks.js';
import { contentFileOption, withContentFromFile } from './content-file.js';

const op = (id: string) => noteOperations.find((o) => o.id === id)!;

/** The generated command plus --content-file (and the checks that need account data). */
function withContentFile(id: string, max?: number, hooks: RunHooks = {}): CommandSpec {
  const operation = op(id);
  const spec = commandFromOperation(operation);
  return {
    ...spec,
    generated: false,
    options: [...(spec.options ?? []), contentFileOption],
    run: async (ctx, { args, opts }) => runOperation(ctx, operation, args, await withContentFromFile(ctx, opts, max), hooks),
  };
}

export const area: AreaModule = {
  commands: [
    ...noteOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation),
    withContentFile('notes.create', NOTE_CONTENT_MAX, { preflight: notePreflight }),
    withContentFile('notes.update', NOTE_CONTENT_MAX, { preflight: notePreflight }),
    withContentFile('notes.comments.add'),
    withContentFile('notes.comments.update'),
  ],
  groups: { 'notes comments': 'Comments on notes: list, get, add, update, delete' },
};
