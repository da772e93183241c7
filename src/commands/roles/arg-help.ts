import type { CommandSpec } from '../../core/command.js';

/** Names what the `<id>` argument is (the generated help only says "path parameter"). */
export function withArgHelp(spec: CommandSpec, description: string): CommandSpec {
  return { ...spec, args: spec.args?.map((a) => (a.name === 'id' ? { ...a, description } : a)) };
}
