import type { Context } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import type { OutputFormat } from '../core/globals.js';

/**
 * The one place that decides what a command prints in: every producer of stdout asks here, so the
 * same flags and the same terminal give the same answer everywhere. What a command prints (its kind)
 * decides the formats it can take and its default:
 * - records (lists, gets, auth status): --output, else a table on a terminal and TSV in a pipe.
 * - report (apply, destroy, import, doctor, sandbox start): --output (table means the human text), else
 *   the human text on a terminal and in a pipe alike (a log a CI job keeps); `piped` replaces that
 *   default in a pipe (sandbox start: one JSON line scripts read).
 * - events (webhooks listen): lines for people on a terminal, JSON lines otherwise; csv/tsv have no fixed
 *   columns for free-form events (exit 2 before anything starts).
 * - raw (api): the service's JSON as it came (--output ndjson puts it on one line); table/tsv/csv apply to
 *   the records of --paginate.
 * - export: its --format, else --output if it is one export writes, else the --out extension, else ndjson.
 * - saved (files download): nothing on a terminal unless asked (stderr says where the file went); in a
 *   pipe the path, or the document in the format asked for.
 */
export interface Formats {
  records: OutputFormat;
  report: Exclude<OutputFormat, 'table'> | 'text';
  events: 'text' | 'ndjson';
  raw: OutputFormat;
  export: ExportFormat;
  saved: Exclude<OutputFormat, 'table'> | 'text' | 'none';
}
export type OutputKind = keyof Formats;
export type ExportFormat = 'ndjson' | 'json' | 'csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['ndjson', 'json', 'csv'];

export interface FormatHints {
  /** report: the default in a pipe instead of the human text. */
  piped?: OutputFormat;
  /** export: its own --format, and --out (whose extension is the default). */
  format?: string;
  out?: string;
}

type Situation = Pick<Context, 'globals' | 'io'>;

export function formatFor<K extends OutputKind>(ctx: Situation, kind: K, hints: FormatHints = {}): Formats[K] {
  if (kind === 'events' && ctx.globals.query !== undefined) throw new UsageError('--query: events are a stream with no one document to query; pipe the JSON lines to jq instead');
  return DECIDE[kind](ctx.globals.output, ctx.io.isStdoutTTY, hints) as Formats[K];
}

const human = <F extends string>(f: F): Exclude<F, 'table'> | 'text' => (f === 'table' ? 'text' : (f as Exclude<F, 'table'>));

const DECIDE: { [K in OutputKind]: (flag: OutputFormat | undefined, tty: boolean, hints: FormatHints) => Formats[K] } = {
  records: (flag, tty) => flag ?? (tty ? 'table' : 'tsv'),
  report: (flag, tty, { piped }) => human(flag ?? (piped && !tty ? piped : 'table')),
  events: (flag, tty) => {
    if (flag === 'csv' || flag === 'tsv') throw new UsageError(`--output ${flag}: events have no fixed columns; use json or ndjson (the default when piped)`);
    if (flag === 'json' || flag === 'ndjson') return 'ndjson';
    if (flag === 'table') return 'text';
    return tty ? 'text' : 'ndjson';
  },
  raw: (flag) => flag ?? 'json',
  export: (flag, _tty, { format, out }) => {
    if (format) return format as ExportFormat;
    if (flag && (EXPORT_FORMATS as readonly string[]).includes(flag)) return flag as ExportFormat;
    if (flag) throw new UsageError(`--output ${flag}: export writes ndjson, json or csv (use --format)`);
    const ext = out?.toLowerCase().match(/\.(ndjson|jsonl|json|csv)$/)?.[1];
    return ext === 'json' ? 'json' : ext === 'csv' ? 'csv' : 'ndjson';
  },
  saved: (flag, tty) => (flag ? human(flag) : tty ? 'none' : 'text'),
};
