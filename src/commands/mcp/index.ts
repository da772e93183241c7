import type { AreaModule, ProgramInfo } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { startFailure } from './start-failure.js';

/**
 * `crmctl mcp`: the account as Model Context Protocol tools over stdio, for AI assistants, with the
 * login of the selected profile (or env credentials). Tools come from the operation tables; the
 * SDK and the tool code load only here, in run().
 */
const mcp = defineCommand({
  path: ['mcp'],
  summary: 'Serve the account as MCP tools over stdio for AI assistants (read-only unless allowed)',
  description: [
    'By default a short list that fits every client: find_operations, describe_operation and call_operation reach every',
    'operation of the tables, plus a few common reads; the account\'s pipelines, users, activity types and fields are resources.',
    '--areas (or --all-tools) offers one tool per operation instead, each with its JSON Schema, cost, scopes and hints.',
    'Read-only by default: --allow-writes offers creates and updates, --allow-destructive (with --allow-writes) calls that lose data or access:',
    'deletes, merges, archives, deactivations, conversions, emptied member lists, visibility that hides records (classified by effect and arguments).',
    'Results hold record content under "data" with a note that it is data, never instructions.',
    'Arguments are checked with the same rules as the commands before anything is sent; refusals and service errors come back',
    'as tool errors. Calls are paced to the account\'s cost budget. Register it in a client as {"command": "crmctl", "args": ["mcp"],',
    '"env": {"CRMCTL_CONFIG_DIR": "..."}} (docs/mcp.md): clients start servers without your shell\'s environment.',
    '--list-tools prints the tools this configuration offers instead of serving.',
  ].join('\n'),
  examples: ['crmctl mcp', 'crmctl mcp --areas deals,persons,activities --allow-writes', 'crmctl mcp --profile sandbox --list-tools --json'],
  flags: {
    areas: flag.string({ value: 'list', description: 'one tool per operation of these areas (comma-separated command names, e.g. leads,deals)' }),
    allTools: flag.bool({ description: 'one tool per operation of every area instead of the discovery tools (183+ tools: past most clients\' limits)' }),
    allowWrites: flag.bool({ description: 'offer creates and updates (default: reads only)' }),
    allowDestructive: flag.bool({ description: 'allow destructive calls too: deletes, merges, archives, deactivations, emptied member lists (needs --allow-writes)' }),
    listTools: flag.bool({ description: 'print the tools offered (name, kind, cost, scopes) and exit' }),
  },
  fields: ['name', 'kind', 'area', 'cost', 'scopes', 'description'],
  async run(ctx, { flags, program }) {
    const { allowWrites, allowDestructive } = flags;
    if (allowDestructive && !allowWrites) throw new UsageError('--allow-destructive: needs --allow-writes (a delete is a write)');
    const areas = flags.areas === undefined ? undefined : await areaSet(flags.areas, program);
    const mode: 'discovery' | 'operations' = areas || flags.allTools ? 'operations' : 'discovery';
    const policy = { mode, areas, allowWrites, allowDestructive };
    if (flags.listTools) {
      const [{ listedTools }, { allTools }, { renderRecords }, { isHealthTool }] = await Promise.all([import('../../mcp/discovery.js'), import('../../mcp/tools.js'), import('../../output/render.js'), import('../../health/mcp-tool-defs.js')]);
      const defs = new Map(allTools().map((t) => [t.name, t]));
      const rows = listedTools(policy).map((l) => {
        const t = defs.get(l.name);
        return { name: l.name, kind: t?.kind ?? (isHealthTool(l.name) ? 'read' : 'discovery'), area: t?.area ?? '', cost: t?.op.cost ?? null, scopes: t?.op.scopes.join(' ') ?? '', description: l.description };
      });
      await renderRecords(ctx, rows, { columns: ['name', 'kind', 'cost', 'scopes'], fields: ['name', 'kind', 'area', 'cost', 'scopes', 'description'] });
      return;
    }
    // Fail at start (exit 4) rather than on every call when there is no login, saying why in one line.
    try {
      await ctx.http();
    } catch (err) {
      throw await startFailure(ctx, err);
    }
    const { runMcpServer } = await import('../../mcp/server.js');
    await runMcpServer(ctx, policy);
  },
});

/** --areas names resolved to the tools' area names (aliases allowed); an unknown name is exit 2. */
async function areaSet(list: string, program: ProgramInfo): Promise<Set<string>> {
  const { allTools } = await import('../../mcp/tools.js');
  const withTools = new Set(allTools().map((t) => t.area));
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = names.filter((n) => !withTools.has(program.areaName(n) ?? n));
  if (!names.length || bad.length) throw new UsageError(`--areas: ${names.length ? `unknown area${bad.length > 1 ? 's' : ''} ${bad.join(', ')}` : 'is empty'}; areas with tools: ${[...withTools].sort().join(', ')}`);
  return new Set(names.map((n) => program.areaName(n) ?? n));
}

export const area: AreaModule = { commands: [mcp] };
