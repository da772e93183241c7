/** One run of `crmctl changes`: read the feed, write every line, and only then move the watermark. */
import type { Context } from '../core/context.js';
import { ApiError, CliError, RateLimitError, UsageError, ValidationError } from '../core/errors.js';
import { ChangeFeed, CHANGE_TYPES, type Boundary, type Change, type ChangeType } from './changes-feed.js';
import { parseSince, toServiceTime } from './changes-time.js';
import { Watermark } from './changes-watermark.js';
import { FileSink, StreamSink, type Sink } from './sink.js';

export interface ChangesOptions {
  since?: string;
  types?: string[];
  peek: boolean;
  reset: boolean;
  out?: string;
  pageSize?: number;
}

export async function runChanges(ctx: Context, o: ChangesOptions): Promise<void> {
  const types = parseTypes(o.types);
  const since = o.since === undefined ? undefined : parseSince(o.since);
  const output = ctx.globals.output;
  const ndjson = (output === undefined || output === 'ndjson') && ctx.globals.query === undefined && ctx.globals.fields === undefined;
  if (o.out && !ndjson) throw new UsageError('--out writes NDJSON; drop --output, --fields and --query, or drop --out');

  const watermark = new Watermark(ctx.env, await ctx.profileName(), types);
  // Two runs at once would print the same changes and race to move the watermark: the second is refused.
  const release = o.peek ? () => {} : await watermark.lock();
  try {
    await feedOnce(ctx, o, types, since, ndjson, watermark);
  } finally {
    release();
  }
}

async function feedOnce(ctx: Context, o: ChangesOptions, types: ChangeType[], since: Date | undefined, ndjson: boolean, watermark: Watermark): Promise<void> {
  if (o.reset) {
    watermark.reset();
    if (!since) {
      ctx.info(`Forgot the changes watermark of this profile for ${types.join(',')}.`);
      return;
    }
  }
  const from: Boundary | undefined = since ? { time: toServiceTime(since), seen: [] } : watermark.load();
  if (!from) {
    throw new UsageError(
      `no watermark yet for this profile and --types ${types.join(',')}: the first run needs --since`,
      'For example `crmctl changes --since 24h`; later runs continue from where the last one stopped.',
    );
  }

  const feed = new ChangeFeed(ctx, types, from, o.pageSize);
  const count = ndjson ? await writeNdjson(ctx, feed, o.out) : await writeRendered(ctx, feed, ctx.globals.output === 'table');
  if (!o.peek) watermark.save(feed.boundary());
  const until = feed.boundary().time;
  ctx.info(`${count} change${count === 1 ? '' : 's'} since ${from.time} UTC${o.peek ? ' (watermark left as it was)' : `; watermark now ${until} UTC`}.`);
}

function parseTypes(raw: string[] | undefined): ChangeType[] {
  if (!raw?.length) return [...CHANGE_TYPES];
  const bad = raw.filter((t) => !(CHANGE_TYPES as readonly string[]).includes(t));
  if (bad.length) throw new ValidationError([{ field: '--types', rule: `must name some of ${CHANGE_TYPES.join(', ')} (got ${bad.map((b) => JSON.stringify(b)).join(', ')})` }]);
  return Watermark.normalise(raw as ChangeType[]);
}

/** Every line confirmed written (a file fsynced) before this returns: a failed write throws, and the watermark stays. */
async function writeNdjson(ctx: Context, feed: ChangeFeed, out: string | undefined): Promise<number> {
  let sink: Sink | undefined;
  let count = 0;
  try {
    sink = out ? new FileSink(out) : new StreamSink(ctx.io.stdout);
    for await (const change of feed.changes()) {
      await sink.write(`${JSON.stringify(change)}\n`);
      count++;
    }
    sink.sync();
  } catch (err) {
    // The service's errors keep their type and advice (a spent daily budget says when it resets); the watermark stays either way.
    if (err instanceof ApiError || err instanceof RateLimitError) throw err;
    // The sink's own advice is an export's (--resume); here nothing was marked read.
    if (err instanceof CliError && !(err instanceof UsageError)) {
      throw new CliError(err.message, err.exitCode, `The watermark did not move: fix the cause${out ? ' (or choose another --out)' : ', or write to a file with --out FILE,'} and run the same command again.`);
    }
    throw err;
  } finally {
    sink?.close();
  }
  return count;
}

/** --output table/json/csv/tsv (and --fields, --query) through the one output path, then a flush that must succeed. */
async function writeRendered(ctx: Context, feed: ChangeFeed, table: boolean): Promise<number> {
  const { renderRecords } = await import('../output/render.js');
  const watch = new StreamSink(ctx.io.stdout);
  const rows: unknown[] = [];
  for await (const change of feed.changes()) rows.push(table ? tableRow(change) : change);
  const count = await renderRecords(ctx, rows, table ? { columns: ['time', 'type', 'action', 'id', 'name'] } : {});
  // The output path gives up quietly on a closed reader; the watermark must not move past lines nobody got.
  await watch.write('');
  return count;
}

const tableRow = (c: Change) => ({ time: c.time, type: c.type, action: c.action, id: c.id, name: c.record.title ?? c.record.name ?? c.record.subject ?? '' });
