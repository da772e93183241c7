import { UsageError } from './errors.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Flags every command accepts; parsed once by `main` before the command tree is built. */
export interface GlobalOptions {
  profile: string | undefined;
  output: OutputFormat | undefined;
  fields: string[] | undefined;
  color: boolean;
  debug: boolean;
  yes: boolean;
  noInput: boolean;
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
