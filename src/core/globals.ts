import { UsageError } from './errors.js';
import { OUTPUT_FORMATS } from './global-flags.js';

export { OUTPUT_FORMATS };
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Values of the global flags (core/global-flags.ts) for one command line. */
export interface GlobalOptions {
  /** --profile as given; the environment and the stored default are weighed by config/store.ts resolveProfileName. */
  profile: string | undefined;
  output: OutputFormat | undefined;
  fields: string[] | undefined;
  color: boolean;
  debug: boolean;
  yes: boolean;
  noInput: boolean;
  /** --show-secrets: print secret fields (a webhook's password) instead of ******** (src/output/secrets.ts). */
  showSecrets?: boolean;
}

export function parseOutputFormat(value: string): OutputFormat {
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`--output: must be one of ${OUTPUT_FORMATS.join(', ')} (got "${value}")`);
}

export function parseFieldList(value: string): string[] {
  const fields = value.split(',').map((f) => f.trim()).filter(Boolean);
  if (fields.length === 0) throw new UsageError('--fields: give at least one field name, e.g. --fields id,title');
  return fields;
}
