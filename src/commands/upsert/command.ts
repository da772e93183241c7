import type { Operation } from '../../api/operation.js';
import type { UpsertKind } from '../../automation/upsert-key.js';
import type { CommandSpec } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag, flagOptions } from '../../core/flags.js';
import { collectFlags, commandFromOperation } from '../operation-command.js';

const KEYS: Record<UpsertKind, { noun: string; by: string; example: string }> = {
  persons: { noun: 'person', by: 'email, name, phone', example: 'crmctl persons upsert --by email --name "Alice Andersson" --emails alice@example.org --job-title CTO' },
  organizations: { noun: 'organization', by: 'name', example: 'crmctl organizations upsert --by "Registry code" --name "Acme Corporation" --field "Registry code=10137319"' },
  deals: { noun: 'deal', by: 'title (or name)', example: 'crmctl deals upsert --by title --title "Acme renewal 2027" --value 24000 --currency EUR' },
  products: { noun: 'product', by: 'name, code', example: 'crmctl products upsert --by code --name "Support hours" --code SUP-1 --unit hour' },
};

/**
 * `crmctl <area> upsert --by KEY`: the area's create flags (same names, --field NAME=VALUE, --data)
 * plus --by. Its flags are the create command's, worked out only when the command is wired or
 * documented, so loading the area costs nothing more.
 */
export function upsertCommand(ops: { create: Operation; update: Operation; get: Operation; search: Operation }, kind: UpsertKind): CommandSpec {
  const k = KEYS[kind];
  const flags = {
    by: flag.string({ value: 'key', description: `what identifies the ${k.noun}: ${k.by}, or a custom field by name (text, number or phone; not monetary or address); required` }),
  };
  const spec = defineCommand({
    path: [kind, 'upsert'],
    summary: `Create a ${k.noun}, or change the one whose --by key matches (only the fields that differ)`,
    description: [
      `Takes the same flags as \`crmctl ${kind} create\`. The ${k.noun} whose --by value equals the one given is found with the`,
      `service's search (exact match on that field), then read to confirm the value. No match: the ${k.noun} is created.`,
      `One match: only the fields whose values differ are sent (PATCH); when none differ nothing is sent and stderr says`,
      `"unchanged". Several matches: exit 2 listing them, nothing sent. Emails and phones given are added to the ${k.noun}'s,`,
      'never removed. json output: {action: created|updated|unchanged, changed, record}. See docs/upsert.md.',
    ].join('\n'),
    examples: [k.example, `crmctl ${kind} upsert --by ${kind === 'persons' ? 'email' : kind === 'deals' ? 'title' : 'name'} --data @${k.noun}.json --json`],
    // The create first: the command takes its flags (help, docs and the hostile-input cases read it so).
    operations: [ops.create, ops.search, ops.get, ops.update],
    fields: ops.create.cli.fields,
    flags,
    async run(ctx, { flags: f, tableOpts }) {
      const raw = await collectFlags(ctx, ops.create, [], tableOpts);
      const { runUpsert } = await import('../../automation/upsert.js');
      await runUpsert(ctx, kind, f.by, raw);
    },
  });
  let options: CommandSpec['options'];
  return Object.defineProperty(spec, 'options', { get: () => (options ??= [...(commandFromOperation(ops.create).options ?? []), ...flagOptions(flags)]), enumerable: true });
}
