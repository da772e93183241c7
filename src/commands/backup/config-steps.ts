import type { ConfigPull } from '../../backup/run.js';
import type { ConfigApply } from '../../backup/restore.js';

/**
 * The configuration steps of a backup and a restore: `pull` and `apply`, which are commands. src/backup sits
 * below src/commands (the commands import it), so the commands hand these in rather than src/backup importing
 * a command (that would be a circle between the rooms).
 */
export const pullConfig: ConfigPull = {
  async read(ctx, dir) {
    const { readPull, writePull } = await import('../pull/run.js');
    const read = await readPull(ctx);
    return { records: read.records, users: read.users, cost: read.cost, write: () => writePull(ctx, dir, read) };
  },
  costAtLeast: async () => (await import('../pull/run.js')).pullCostAtLeast(),
};

export const applyConfig: ConfigApply = async (ctx, files) => (await import('../apply/run.js')).runApply(ctx, { files, dryRun: false, prune: [] });
