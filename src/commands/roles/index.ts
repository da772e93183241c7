import { callOperation } from '../../api/call.js';
import { roleOperations } from '../../api/operations/roles.js';
import type { AreaModule, CommandSpec } from '../../core/command.js';
import { UsageError } from '../../core/errors.js';
import { buildInput, commandFromOperation, runOperation, type RunHooks } from '../from-operation.js';
import { withArgHelp } from './arg-help.js';
import { assignedUserPreflight, parentRolePreflight, pipelineIdsPreflight } from './checks.js';

const op = (id: string) => roleOperations.find((o) => o.id === id)!;

/** Checks that need the account's data run before these writes (reads only). */
const PREFLIGHT: Record<string, RunHooks['preflight']> = {
  'roles.create': parentRolePreflight,
  'roles.update': parentRolePreflight,
  'roles.assignments.remove': assignedUserPreflight,
  'roles.pipelines.update': pipelineIdsPreflight,
};

const generated = roleOperations
  .filter((o) => !o.cli.handWritten)
  .map((o): CommandSpec => {
    const spec = commandFromOperation(o);
    const preflight = PREFLIGHT[o.id];
    return preflight ? { ...spec, run: (ctx, i) => runOperation(ctx, o, i.args, i.opts, { preflight }) } : spec;
  });

/** `roles get`: the role with its settings (the service sends them beside the role, in additional_data). */
const getOp = op('roles.get');
const get: CommandSpec = {
  ...commandFromOperation(getOp),
  generated: false,
  async run(ctx, { args, opts }) {
    const input = await buildInput(ctx, getOp, args, opts);
    const { checkFields, renderRecord } = await import('../../output/render.js');
    checkFields(ctx, getOp.cli.fields);
    const { envelope } = await callOperation(await ctx.http(), getOp, input);
    const settings = (envelope.additional_data as { settings?: unknown } | null)?.settings ?? null;
    await renderRecord(ctx, { ...(envelope.data as object), settings }, { columns: getOp.cli.columns, fields: getOp.cli.fields });
  },
};

/** `roles pipelines list [--hidden]`: visible pipelines by default, hidden ones with --hidden. */
const pipelinesOp = op('roles.pipelines.list');
const pipelinesBase = commandFromOperation(pipelinesOp);
const pipelines: CommandSpec = {
  ...pipelinesBase,
  generated: false,
  options: [...(pipelinesBase.options ?? []), { flags: '--hidden', description: 'list the pipelines hidden from the role (same as --visible false)' }],
  run(ctx, { args, opts }) {
    const { hidden, ...rest } = opts;
    if (hidden && rest.visible !== undefined) throw new UsageError('--hidden and --visible cannot be used together');
    return runOperation(ctx, pipelinesOp, args, hidden ? { ...rest, visible: 'false' } : rest);
  },
};

const handWritten: Record<string, CommandSpec> = { 'roles.get': get, 'roles.pipelines.list': pipelines };
const commands = roleOperations.map((o) => handWritten[o.id] ?? generated.find((c) => c.operations?.[0] === o)!);

export const area: AreaModule = {
  commands: commands.map((c) => withArgHelp(c, 'role id')),
  groups: {
    'roles assignments': 'Users assigned to a role',
    'roles settings': 'Default visibility settings of a role',
    'roles pipelines': 'Pipelines a role can see',
  },
};
