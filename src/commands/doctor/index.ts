import type { AreaModule, CommandSpec } from '../../core/command.js';

/**
 * `crmctl doctor`: checks a setup the way support would — config file mode, credentials and token
 * expiry, the API and auth server answering, the clock against the service's Date header, and the
 * token's scopes against what the common commands need. Everything heavy is imported in run(), so
 * `crmctl doctor --help` loads no HTTP or auth code.
 */
const doctor: CommandSpec = {
  path: ['doctor'],
  summary: 'Check the setup: config file, token expiry, clock, daily budget, API and auth server, scopes',
  description: 'Each finding says what was seen and, when something is wrong, the command or step that fixes it; the daily token budget left comes from the headers of the API check. Exit code 0 when every check passes (or does not apply), 1 when one fails. Read-only: sends GET /api/v1/users/me and opens the auth server\'s authorize page, nothing else.',
  examples: ['crmctl doctor', 'crmctl doctor --profile sandbox --json', 'crmctl doctor --deprecated deploy.sh'],
  options: [
    {
      flags: '--deprecated [file]',
      description: 'instead of the checks: list the crmctl commands of a shell script (FILE, or stdin) that call v1 endpoints out of support, each with the v2 command; exit 1 when there is one. Reads nothing from the account',
    },
  ],
  fields: ['ok', 'profile', 'checks'],
  async run(ctx, { opts, program }) {
    if (opts.deprecated !== undefined && opts.deprecated !== false) {
      const { runDeprecatedScan } = await import('./deprecated-report.js');
      return runDeprecatedScan(ctx, opts.deprecated as string | true, program);
    }
    const { runDoctor } = await import('./run.js');
    await runDoctor(ctx);
  },
};

export const area: AreaModule = { commands: [doctor] };
