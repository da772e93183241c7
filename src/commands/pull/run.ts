import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { read } from '../../entry/prepare.js';
import { currencyOps } from '../../api/operations/currencies.js';
import { projectTemplateOps } from '../../api/operations/project-templates.js';
import { userOps } from '../../api/operations/users.js';
import { settledInOrder } from '../../core/bounded.js';
import { CONFIG_KIND_NAMES } from '../../apply-engine/config/kinds.js';
import { liveCostAtLeast, readLive, readUsers, type LiveAccount, type LiveRecord, type TextScrub } from '../../apply-engine/config/live.js';
import { configFiles, referenceFile, unwritable } from '../../apply-engine/config/write.js';
import { REFERENCE_FILE } from '../../apply-engine/files.js';
import type { Context } from '../../core/context.js';
import { writeFilesAtomic } from '../../fs/atomic-write.js';

const pick = (r: unknown, keys: string[]) => Object.fromEntries(keys.map((k) => [k, (r as Record<string, unknown>)[k] ?? null]));
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** What a pull read: the configuration records (with their ids) and the users, for a backup's reference files. */
export interface Pulled {
  records: LiveRecord[];
  users: unknown[];
  cost: number;
}

/** Everything a pull reads, before any file is made of it: its cost is known here (a backup prices its run with it). */
export interface PullRead extends Pulled {
  live: LiveAccount;
  goals: unknown[];
  currencies: unknown;
  templates: unknown;
}

/** Reads every configuration kind, writes one file per group and the reference file; says what it wrote. */
export async function runPull(ctx: Context, o: { dir: string; scrub?: TextScrub }): Promise<Pulled> {
  return writePull(ctx, o.dir, await readPull(ctx, o), o.scrub);
}

/** The reads of a pull: every configuration kind, the goals, users, currencies and project templates. */
export async function readPull(ctx: Context, o: { scrub?: TextScrub } = {}): Promise<PullRead> {
  const live = await readLive(ctx, new Set(CONFIG_KIND_NAMES), o.scrub);
  const { goalsForReference } = await import('../../apply-engine/config/goals-reference.js');
  // Independent reads, together rather than one after another (each still paced by the client's cost governor).
  const [goals, usersAnswer, currencies, templates] = await settledInOrder([
    (async () => goalsForReference(ctx, live.records, live.users.length ? live.users : await readUsers(ctx)))(),
    read(ctx, userOps.list), read(ctx, currencyOps.list), read(ctx, projectTemplateOps.list),
  ] as const);
  const cost = live.cost + goals.cost + (currencyOps.list.cost ?? 0) + (userOps.list.cost ?? 0) + (projectTemplateOps.list.cost ?? 0);
  return { live, records: live.records, users: list(usersAnswer), goals: goals.goals, currencies, templates, cost };
}

/** What `readPull` costs at least, known before any answer (see liveCostAtLeast). */
export function pullCostAtLeast(): number {
  return liveCostAtLeast(new Set(CONFIG_KIND_NAMES)) + (currencyOps.list.cost ?? 0) + (userOps.list.cost ?? 0) + (projectTemplateOps.list.cost ?? 0);
}

/** The files of a pull (one per group and the reference file) made from its reads, written into `dir`. */
export async function writePull(ctx: Context, dir: string, r: PullRead, scrub?: TextScrub): Promise<Pulled> {
  const files = configFiles(r.live.records, r.live.users);
  const { GOALS_NOT_WRITTEN } = await import('../../apply-engine/config/goals-reference.js');
  const reference = {
    currencies: list(r.currencies).map((c) => pick(c, ['code', 'name', 'symbol', 'decimal_points', 'active_flag'])),
    users: r.users.map((u) => pick(u, ['name', 'email', 'active_flag', 'is_admin'])).sort((a, b) => String(a.email).localeCompare(String(b.email))),
    not_writable: unwritable(r.live.records),
    goals: { not_written: GOALS_NOT_WRITTEN, list: r.goals },
    project_templates: list(r.templates).map((t) => pick(t, ['title', 'description'])).sort((a, b) => String(a.title).localeCompare(String(b.title))),
  };
  // Users stay as they are: the configuration names them by e-mail (a team's members), and a sample is loaded as the sandbox's admin.
  if (scrub) reference.project_templates = scrub.value(reference.project_templates);
  files.set(REFERENCE_FILE, referenceFile(reference));
  mkdirSync(dir, { recursive: true });
  await writeFilesAtomic([...files].map(([name, text]) => ({ path: join(dir, name), text })));
  ctx.info(`Pulled ${r.live.records.filter((x) => !x.unwritable).length} configuration records into ${[...files.keys()].join(', ')} in ${dir}. Cost: ${r.cost}.`);
  return { records: r.records, users: r.users, cost: r.cost };
}
