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
  /**
   * --query: a JMESPath expression applied to the JSON output (src/output/query.ts), printed as JSON,
   * one JSON line per item (-o ndjson) or text (-o tsv). `output` is then json or ndjson, so every
   * command shows the service's records to the query, never a table's presentation.
   */
  query?: { expr: string; as: 'json' | 'ndjson' | 'text' };
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

/** --query with the --output it was given: the query's printing, and the output the command then runs with. */
export function parseQuery(expr: string, output: OutputFormat | undefined): { query: NonNullable<GlobalOptions['query']>; output: OutputFormat } {
  if (output === 'table' || output === 'csv') throw new UsageError(`--query prints json, ndjson or tsv (text), not ${output}`);
  if (!expr.trim()) throw new UsageError('--query: give a JMESPath expression, e.g. --query "[].id"');
  return { query: { expr, as: output === 'tsv' ? 'text' : output === 'ndjson' ? 'ndjson' : 'json' }, output: output === 'ndjson' ? 'ndjson' : 'json' };
}

export function parseFieldList(value: string): string[] {
  const fields = value.split(',').map((f) => f.trim()).filter(Boolean);
  if (fields.length === 0) throw new UsageError('--fields: give at least one field name, e.g. --fields id,title');
  return fields;
}
