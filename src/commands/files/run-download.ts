import { accessSync, constants, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Operation } from '../../api/operation.js';
import { toRequest } from '../../api/call.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { validateParams } from '../../input/operation-input.js';
import { collectParams } from '../operation-command.js';

/** `attachment; filename="a b.pdf"` (or RFC 5987 filename*=UTF-8''a%20b.pdf) → a safe base name. */
export function fileNameOf(disposition: unknown, fallback: string): string {
  const text = Array.isArray(disposition) ? String(disposition[0]) : String(disposition ?? '');
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(text);
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(text);
  let name = star ? decodeURIComponent(star[1]!.trim()) : plain ? (plain[1] ?? plain[2] ?? '').trim() : '';
  // Never a path: the service names a file, not where it goes.
  name = basename(name.replace(/\\/g, '/'));
  return name && name !== '.' && name !== '..' ? name : fallback;
}

export async function runDownload(ctx: Context, op: Operation, args: string[], o: { out?: string; force: boolean }): Promise<void> {
  // The same argument handling as every generated command: named when missing, asked on a terminal.
  const params = validateParams(op, await collectParams(ctx, op, args));
  const toStdout = o.out === '-';
  const intoDir = o.out !== undefined && !toStdout && (o.out.endsWith('/') || (existsSync(o.out) && statSync(o.out).isDirectory()));
  if (o.out !== undefined && !toStdout && !intoDir) checkTarget(o.out, o.force);
  if (intoDir && !existsSync(o.out!)) throw new UsageError(`--out: directory ${o.out} does not exist`);

  const http = await ctx.http();
  let target: string | undefined;
  let partial: string | undefined;
  const sink = {
    open(headers: Record<string, string | string[] | undefined>): NodeJS.WritableStream {
      if (toStdout) return toStdoutStream(ctx);
      const name = fileNameOf(headers['content-disposition'], `file-${String(params.id)}`);
      target = o.out === undefined ? name : intoDir ? join(o.out!, name) : o.out;
      checkTarget(target, o.force);
      partial = join(dirname(target), `.${basename(target)}.crmctl-partial-${process.pid}`);
      return createWriteStream(partial);
    },
  };
  try {
    await http.send({ ...toRequest(op, await (await import('../../entry/prepare.js')).prepare(ctx, op, { params })), sink });
  } catch (err) {
    if (partial) rmSync(partial, { force: true });
    throw err;
  }
  if (toStdout) return;
  const bytes = statSync(partial!).size;
  renameSync(partial!, target!);
  ctx.info(`Saved ${target} (${bytes} bytes).`);
  const { renderDocument } = await import('../../output/report.js');
  await renderDocument(ctx, { json: { id: params.id, path: target, bytes }, text: target!, kind: 'saved' });
}

/** The target may be written: its directory exists, and it is not a directory or (without --force) a file. */
function checkTarget(path: string, force: boolean): void {
  const dir = dirname(path);
  if (!existsSync(dir)) throw new UsageError(`--out: directory ${dir} does not exist`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(`--out: cannot write in ${dir} (permission denied)`);
  }
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) throw new UsageError(`--out: ${path} is a directory; give a file name inside it or end it with /`);
    if (!force) throw new UsageError(`--out: ${path} exists; pass --force to replace it`);
  }
}

/** stdout as the sink: bytes pass through unchanged (the file itself is the output). */
function toStdoutStream(ctx: Context): NodeJS.WritableStream {
  const pass = new PassThrough();
  pass.pipe(ctx.io.stdout, { end: false });
  return pass;
}
