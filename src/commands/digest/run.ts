import type { Context } from '../../core/context.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { settingsOf } from '../../health/audit/session.js';
import { composeDigest } from '../../health/digest/compose.js';
import { digestHtml } from '../../health/digest/html.js';
import { digestMarkdown } from '../../health/digest/markdown.js';
import { writeOut } from '../../output/render.js';

export interface DigestFlags {
  format?: 'md' | 'html';
  out?: string;
  withHistory: boolean;
  pipeline?: string;
  asOf?: string;
  from?: string;
  convertTo?: string;
  rate: string[];
  config?: string;
  checks: string[] | undefined;
  region?: string;
}

export async function runDigest(ctx: Context, f: DigestFlags): Promise<void> {
  const format = f.format ?? (/\.html?$/i.test(f.out ?? '') ? 'html' : 'md');
  const { cfg, asOf } = settingsOf({ config: f.config, checks: f.checks, region: f.region, asOf: f.asOf });
  const data = await composeDigest(ctx, { pipeline: f.pipeline, asOf, from: f.from, convertTo: f.convertTo, rates: f.rate, withHistory: f.withHistory, cfg });
  const text = format === 'html' ? digestHtml(data) : digestMarkdown(data);
  if (f.out) {
    writeFileAtomic(f.out, text, 0o644);
    ctx.info(`Wrote the digest of ${data.pipeline.name}, ${data.from} to ${data.to}, to ${f.out} (${format}).`);
  } else await writeOut(ctx.io.stdout, text);
}
