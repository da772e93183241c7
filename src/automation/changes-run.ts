/** One run of `crmctl changes`: read the feed, write every line, and only then move the watermark. */
import { userOps } from '../api/operations/users.js';
import type { Context } from '../core/context.js';
import { accountOf } from '../runs/account.js';
import { ApiError, CliError, RateLimitError, UsageError, ValidationError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { ChangeFeed, CHANGE_TYPES, type Boundary, type Change, type ChangeType } from './changes-feed.js';
import type { HttpPort } from '../core/http-port.js';
import { isSpan, parseSince, toServiceTime } from './changes-time.js';
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
  // Checked before anything is sent; a span (24h) becomes a time only once the service's clock is known.
  if (o.since !== undefined) parseSince(o.since);
  const output = ctx.globals.output;
  const ndjson = (output === undefined || output === 'ndjson') && ctx.globals.query === undefined && ctx.globals.fields === undefined;
  if (o.out && !ndjson) throw new UsageError('--out writes NDJSON; drop --output, --fields and --query, or drop --out');

  // Whose watermark this is: the account of src/runs (users/me, cost 2, read once a token). A span
  // (--since 24h) needs the service's clock from that read's Date header, so it is read then even when known.
  const account = await accountOf(ctx, { ask: o.since !== undefined && isSpan(o.since) });
  if (account.company_id === null || account.user_id === null) {
    throw new CliError(`GET ${userOps.me.path} gave no company_id and id: the changes watermark cannot tell which account it belongs to.`);
  }
  const http = await ctx.http();
  const since = o.since === undefined ? undefined : sinceOnServiceClock(o.since, http);
  const profile = await ctx.profileName();
  const { envCredentialKind } = await import('../auth/credentials.js');
  const watermark = new Watermark(ctx.env, account, profile, types, envCredentialKind(ctx.env) ? undefined : profile);
  // Two runs at once would print the same changes and race to move the watermark: the second is refused.
  const release = o.peek ? () => {} : await watermark.lock();
  try {
    await feedOnce(ctx, o, types, since, ndjson, watermark, http);
  } finally {
    release();
  }
}

/**
 * `--since` as a time on the service's clock: a span counts back from the service's now (its Date
 * header), never from ours, which may be hours off: a local clock 2 h ahead would put `--since 1h` an
 * hour into the service's future, and every change until then would be lost.
 */
function sinceOnServiceClock(raw: string, http: HttpPort): Date {
  if (!isSpan(raw)) return parseSince(raw);
  if (http.clockOffsetMs === undefined) {
    throw new CliError('The service\'s answer had no Date header, so a span like --since 24h cannot be counted on its clock.', EXIT.ERROR, 'Give --since as a time instead, e.g. --since 2026-11-24T06:00:00Z.');
  }
  return parseSince(raw, '--since', () => http.serviceNow());
}

async function feedOnce(ctx: Context, o: ChangesOptions, types: ChangeType[], since: Date | undefined, ndjson: boolean, watermark: Watermark, http: HttpPort): Promise<void> {
  if (o.reset) {
    watermark.reset();
    if (!since) {
      ctx.info(`Forgot the changes watermark of this account for ${types.join(',')}.`);
      return;
    }
  }
  const from: Boundary | undefined = since ? { time: toServiceTime(since), seen: [] } : watermark.load();
  if (!from) {
    throw new UsageError(
      `no watermark yet for this account and --types ${types.join(',')}: the first run needs --since`,
      'For example `crmctl changes --since 24h`; later runs continue from where the last one stopped.',
    );
  }

  const feed = new ChangeFeed(ctx, types, from, o.pageSize);
  const count = ndjson ? await writeNdjson(ctx, feed, o.out) : await writeRendered(ctx, feed, ctx.globals.output === 'table');
  if (!o.peek) watermark.save(feed.boundary(), http.serviceNow());
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
