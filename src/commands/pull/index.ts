import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';

/**
 * `crmctl pull`: the account as files. Minimal form on this branch (the sample of records only);
 * the configuration part lives on the branch that owns this file.
 */
const pull = defineCommand({
  path: ['pull'],
  summary: "Write the account's setup as files apply accepts, optionally with a sample of records",
  description: 'With --sample N, writes <out>/sample/{organizations,persons,deals,activities}.csv: up to N records of each with their links, names, emails and phones replaced by deterministic fakes. `crmctl sandbox start --from <out>` loads them. Guide: docs/sandbox.md ("Your account, locally").',
  examples: ['crmctl pull --out ./acct --sample 20', 'crmctl sandbox start --from ./acct --seed empty'],
  flags: {
    out: flag.string({ value: 'dir', required: true, description: 'directory to write' }),
    sample: flag.int({ min: 1, max: 1000, value: 'n', description: 'also write up to N deals, persons, organizations and activities with their links, personal data replaced' }),
  },
  async run(ctx, { flags }) {
    if (flags.sample === undefined) return;
    const { writeSample } = await import('./sample.js');
    const { files, records } = await writeSample(ctx, { dir: flags.out, count: flags.sample });
    ctx.info(`Wrote ${records} sample records to ${files.length} files under ${flags.out}/sample.`);
  },
});

export const area: AreaModule = { commands: [pull] };
