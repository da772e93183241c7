import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { read } from '../../entry/prepare.js';
import { currencyOps } from '../../api/operations/currencies.js';
import { projectTemplateOps } from '../../api/operations/project-templates.js';
import { userOps } from '../../api/operations/users.js';
import { settledInOrder } from '../../core/bounded.js';
import { CONFIG_KIND_NAMES } from '../../apply-engine/config/kinds.js';
import { readLive, readUsers, type LiveRecord, type TextScrub } from '../../apply-engine/config/live.js';
import { configFiles, referenceFile, unwritable } from '../../apply-engine/config/write.js';
import { REFERENCE_FILE } from '../../apply-engine/files.js';
import type { Context } from '../../core/context.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';

const pick = (r: unknown, keys: string[]) => Object.fromEntries(keys.map((k) => [k, (r as Record<string, unknown>)[k] ?? null]));
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** What a pull read: the configuration records (with their ids) and the users, for a backup's reference files. */
export interface Pulled {
  records: LiveRecord[];
  users: unknown[];
  cost: number;
}

/** Reads every configuration kind, writes one file per group and the reference file; says what it wrote. */
export async function runPull(ctx: Context, o: { dir: string; scrub?: TextScrub }): Promise<Pulled> {
  const live = await readLive(ctx, new Set(CONFIG_KIND_NAMES), o.scrub);
  const files = configFiles(live.records, live.users);
  const { goalsForReference, GOALS_NOT_WRITTEN } = await import('../../apply-engine/config/goals-reference.js');
  // Independent reads, together rather than one after another (each still paced by the client's cost governor).
  const [goals, usersAnswer, currencies, templates] = await settledInOrder([
    (async () => goalsForReference(ctx, live.records, live.users.length ? live.users : await readUsers(ctx)))(),
    read(ctx, userOps.list), read(ctx, currencyOps.list), read(ctx, projectTemplateOps.list),
  ] as const);
  const users = list(usersAnswer);
  const reference = {
    currencies: list(currencies).map((c) => pick(c, ['code', 'name', 'symbol', 'decimal_points', 'active_flag'])),
    users: users.map((u) => pick(u, ['name', 'email', 'active_flag', 'is_admin'])).sort((a, b) => String(a.email).localeCompare(String(b.email))),
    not_writable: unwritable(live.records),
    goals: { not_written: GOALS_NOT_WRITTEN, list: goals.goals },
    project_templates: list(templates).map((t) => pick(t, ['title', 'description'])).sort((a, b) => String(a.title).localeCompare(String(b.title))),
  };
  // Users stay as they are: the configuration names them by e-mail (a team's members), and a sample is loaded as the sandbox's admin.
  if (o.scrub) reference.project_templates = o.scrub.value(reference.project_templates);
  files.set(REFERENCE_FILE, referenceFile(reference));
  mkdirSync(o.dir, { recursive: true });
  for (const [name, text] of files) writeFileAtomic(join(o.dir, name), text);
  const cost = live.cost + goals.cost + (currencyOps.list.cost ?? 0) + (userOps.list.cost ?? 0) + (projectTemplateOps.list.cost ?? 0);
  ctx.info(`Pulled ${live.records.filter((r) => !r.unwritable).length} configuration records into ${[...files.keys()].join(', ')} in ${o.dir}. Cost: ${cost}.`);
  return { records: live.records, users, cost };
}
