import { planConfig, planDocument, planLines, planSummaryLine, pruneKinds, hasChanges } from '../../apply-engine/config/session.js';
import { expandFixtureArgs } from '../../apply-engine/files.js';
import { readFixtures } from '../../apply-engine/parse.js';
import type { Context } from '../../core/context.js';
import { ChangesFound, UsageError } from '../../core/errors.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { renderDocument } from '../../output/report.js';

/** Prints (or saves) the plan; exit 8 when it has changes, 0 when the account matches the files. */
export async function runPlan(ctx: Context, o: { files: string[]; prune: string[]; out?: string }): Promise<void> {
  const files = expandFixtureArgs(o.files);
  const prune = pruneKinds(o.prune);
  const { records, issues } = readFixtures(files);
  const fixtures = records.filter((r) => !r.config);
  if (fixtures.length) {
    throw new UsageError(`${fixtures[0]!.file}: is a fixture file (a list of records without \`config:\`); crmctl plan compares configuration files with the account`, 'Fixture files: crmctl apply -f <files> --dry-run. Configuration files: crmctl pull --out <dir>.');
  }
  const cp = await planConfig(ctx, records, issues, { env: ctx.env, prune, files });
  const doc = planDocument(cp);
  if (o.out) writeFileAtomic(o.out, `${JSON.stringify(doc, null, 2)}\n`, 0o644);
  const text = [...planLines(cp), planSummaryLine(cp), ...(o.out ? [`Plan saved to ${o.out}: crmctl apply --plan ${o.out} carries it out.`] : [])].join('\n');
  await renderDocument(ctx, { text, json: doc, columns: ['changes', 'cost', 'read_cost'] });
  if (hasChanges(cp.plan)) throw new ChangesFound();
}
