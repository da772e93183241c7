/**
 * The flags every command accepts: the root command registers them, `firstCommandWord` skips their
 * values, and generated commands rename an input that would collide with one. One list for all three.
 */
export interface GlobalFlag {
  /** Commander flags string. */
  flags: string;
  /** Long name without dashes. */
  name: string;
  description: string;
  /** The next word is this flag's value. */
  takesValue: boolean;
  short?: string;
  choices?: readonly string[];
}

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;

export const GLOBAL_FLAGS: readonly GlobalFlag[] = [
  { flags: '--profile <name>', name: 'profile', takesValue: true, description: 'profile to use for this call only (env CRMCTL_PROFILE)' },
  { flags: '-o, --output <format>', name: 'output', short: '-o', takesValue: true, description: 'output format', choices: OUTPUT_FORMATS },
  { flags: '--json', name: 'json', takesValue: false, description: 'shorthand for --output json' },
  { flags: '--fields <list>', name: 'fields', takesValue: true, description: 'comma-separated fields to show (unknown ones are listed)' },
  { flags: '--query <expr>', name: 'query', takesValue: true, description: 'JMESPath expression applied to the JSON output, as aws/az --query (-o tsv prints the result as text)' },
  { flags: '--debug', name: 'debug', takesValue: false, description: 'trace HTTP on stderr (secrets redacted)' },
  { flags: '-y, --yes', name: 'yes', short: '-y', takesValue: false, description: 'confirm destructive actions without a prompt' },
  { flags: '--no-input', name: 'no-input', takesValue: false, description: 'never prompt; fail naming the missing flag' },
  { flags: '--show-secrets', name: 'show-secrets', takesValue: false, description: 'print secret fields (webhook passwords) instead of ********' },
  // Taken out of argv by main before parsing, so that a resource's own --color flag stays free.
  { flags: '--no-color', name: 'no-color', takesValue: false, description: 'no colours (also NO_COLOR=1)' },
];

/** Names an operation input must not take as its flag (`input` is what commander calls --no-input). */
export const GLOBAL_FLAG_NAMES: readonly string[] = [...GLOBAL_FLAGS.map((f) => f.name), 'input', 'version'];

/** Words that take the next word as their value (`--profile x`, `-o json`). */
export const VALUE_FLAG_WORDS: ReadonlySet<string> = new Set(GLOBAL_FLAGS.filter((f) => f.takesValue).flatMap((f) => [`--${f.name}`, ...(f.short ? [f.short] : [])]));
