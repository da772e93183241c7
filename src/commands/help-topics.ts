import { EXIT_DESCRIPTIONS } from '../core/exit-codes.js';

/** `crmctl help <topic>`; docs/ guides print the same text (generated from these functions). */
export const HELP_TOPICS: Record<string, () => string> = {
  'exit-codes': () =>
    [
      'Exit codes of crmctl',
      '',
      ...EXIT_DESCRIPTIONS.map((e) => `  ${String(e.code).padEnd(3)} ${e.name.padEnd(13)} ${e.meaning}`),
      '',
      'Scripts can rely on these numbers; they are part of the interface.',
      '',
    ].join('\n'),
  environment: () =>
    [
      'Environment variables read by crmctl',
      '',
      '  CRMCTL_PROFILE         profile to use when --profile is not given',
      '  CRMCTL_CONFIG_DIR      directory of the config file (default: the OS config dir for "crmctl")',
      '  CRMCTL_ACCESS_TOKEN    OAuth access token (Bearer); wins over stored credentials (CI)',
      '  CRMCTL_API_TOKEN       API token sent as x-api-token; wins over stored credentials (CI)',
      '  CRMCTL_API_DOMAIN      API address for env tokens (the api_domain of the token response)',
      '  CRMCTL_CLIENT_ID       OAuth client id, with CRMCTL_CLIENT_SECRET and CRMCTL_REFRESH_TOKEN:',
      '  CRMCTL_CLIENT_SECRET   refresh without a browser and without a config file (CI)',
      '  CRMCTL_REFRESH_TOKEN',
      '  CRMCTL_AUTH_URL        OAuth server address for the env refresh',
      '  CRMCTL_DEBUG=1         same as --debug (HTTP trace on stderr, secrets redacted)',
      '  CRMCTL_MAX_RETRIES     retries on 429/5xx/resets (default 5)',
      '  CRMCTL_RETRY_BASE_MS   first backoff step in ms (default 300; jittered, doubled each time)',
      '  CRMCTL_HTTP_TRANSPORT  node (default, fastest start-up) or undici',
      '  CRMCTL_WEBHOOK_PASSWORD basic-auth password for `crmctl webhooks listen --user`',
      '  CRMCTL_BUDGET_WINDOW_SEC budget window assumed by `import --dry-run` estimates (default 2)',
      '  CRMCTL_FIELDS_TTL_SEC  how long custom-field names are cached per profile (default 300; 0 = read every time)',
      '  NO_COLOR               no colours (also --no-color)',
      '  COLUMNS                table width when stdout is not a terminal (with --output table)',
      '  CI                     when set, crmctl never prompts and never opens a browser',
      '',
    ].join('\n'),
  output: () =>
    [
      'Output formats',
      '',
      '  On a terminal crmctl prints tables; piped, it prints tab-separated values without a header',
      '  or colours, one record a line, so `cut -f1` gives ids.',
      '',
      '  --output json     the records themselves (an array for lists, an object for one record), not the envelope',
      '  --json            shorthand for --output json',
      '  --output ndjson   one JSON record a line, streamed as pages arrive (best for --all)',
      '  --output csv      a header line, then RFC 4180 rows; cells that a spreadsheet would run as a formula get a leading \'',
      '  --output tsv      tab-separated, no header (the default when piped); formulas neutralised as in csv',
      '  --output table    the default on a terminal, fitted to its width (piped: $COLUMNS, else no limit)',
      '  --fields a,b      only these fields (dotted paths allowed); an unknown field exits 2 and lists the valid ones;',
      '                    in table, tsv and csv also the columns a table derives (a deal\'s stage, owner)',
      '  --show-secrets    print secret fields (a webhook\'s http_auth_password) in clear; otherwise they show as ********',
      '',
      '  Results go to stdout; progress, spinners and messages go to stderr, and only on a terminal.',
      '',
      '  A list without --limit or --all shows one page (100 records). When the service has more, a note',
      '  on stderr says how many were shown (of how many, when the service says) and names --all and',
      '  --limit; it is printed piped too, and never on stdout.',
      '',
    ].join('\n'),
};

export function helpTopic(name: string): string | undefined {
  return HELP_TOPICS[name]?.();
}
