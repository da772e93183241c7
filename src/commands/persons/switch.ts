import type { Operation } from '../../api/operation.js';
import type { CommandSpec, OptionSpec } from '../../core/command.js';
import { ValidationError } from '../../core/errors.js';
import { camel, commandFromOperation, runOperation, type RunHooks } from '../from-operation.js';

/** `--limit <n>` → `limit`: the attribute commander stores the option under. */
function attribute(o: OptionSpec): string {
  const long = /--([a-z0-9-]+)/i.exec(o.flags)![1]!;
  return camel(long);
}

/**
 * One command for two operations that do the same job in two forms (v2 and v1): the primary form by
 * default, the other with a switch flag. Flags of both forms are offered; a flag that only the other
 * form knows is refused (exit 2) instead of being dropped silently.
 */
export function switchedCommand(primary: Operation, alternate: Operation, sw: { flag: string; description: string; hooks?: RunHooks }): CommandSpec {
  const a = commandFromOperation(primary);
  const b = commandFromOperation(alternate);
  const ownA = new Set((a.options ?? []).map(attribute));
  const ownB = new Set((b.options ?? []).map(attribute));
  const merged = new Map<string, OptionSpec>();
  for (const o of [...(a.options ?? []), ...(b.options ?? [])]) {
    const key = attribute(o);
    const prev = merged.get(key);
    if (!prev) merged.set(key, o);
    else if (prev.choices && o.choices) merged.set(key, { ...prev, choices: [...new Set([...prev.choices, ...o.choices])] });
  }
  const switchAttr = camel(sw.flag.replace(/^--/, ''));
  const name = (attr: string) => `--${attr.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  return {
    path: primary.cli.command,
    summary: a.summary,
    description: `${sw.flag} calls ${alternate.method} ${alternate.path} instead of ${primary.method} ${primary.path}.`,
    examples: [...new Set([...primary.cli.examples, ...alternate.cli.examples])],
    args: a.args,
    options: [...merged.values(), { flags: sw.flag, description: sw.description }],
    operations: [primary, alternate],
    fields: [...new Set([...(primary.cli.fields ?? []), ...(alternate.cli.fields ?? [])])],
    async run(ctx, { args, opts }) {
      const useAlternate = Boolean(opts[switchAttr]);
      const own = useAlternate ? ownB : ownA;
      const wrong = Object.keys(opts).filter((k) => k !== switchAttr && opts[k] !== undefined && !own.has(k));
      if (wrong.length) {
        throw new ValidationError(
          wrong.map((k) => ({ field: name(k), rule: useAlternate ? `not available with ${sw.flag} (only in ${primary.path})` : `only with ${sw.flag} (${alternate.path})` })),
        );
      }
      const rest = Object.fromEntries(Object.entries(opts).filter(([k]) => k !== switchAttr));
      const op = useAlternate ? alternate : primary;
      // Fields known to --fields follow the form that answers.
      await runOperation(ctx, op, args, rest, sw.hooks);
    },
  };
}
