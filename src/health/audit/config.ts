import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod/mini';
import { UsageError, ValidationError } from '../../core/errors.js';
import { ruleText } from '../../input/issues.js';
import { unknownKeys } from '../../input/unknown-keys.js';
import { SEVERITIES, type Severity } from '../types.js';
import { CHECK_IDS, checkInfo, type CheckId } from './checks.js';

/**
 * The audit's settings: which checks run, their severities and thresholds. Read from
 * `.crmctl/audit.yaml` in the current directory (or `--config FILE`); every key is checked, an
 * unknown one is refused naming it (exit 2, nothing read from the account), so a typo cannot
 * silently switch a threshold back to its default.
 */

const severity = () => z.enum(SEVERITIES);
const common = () => ({ enabled: z.optional(z.boolean()), severity: z.optional(severity()) });
const fieldList = () => z.optional(z.array(z.string().check(z.minLength(1))));
const days = (min: number) => z.optional(z.int().check(z.gte(min), z.lte(3650)));

const schema = () =>
  z.strictObject({
    phone_region: z.optional(z.string().check(z.regex(/^[A-Za-z]{2}$/, { error: 'must be a two-letter country code (EE, US, GB)' }))),
    checks: z.optional(
      z.strictObject({
        'duplicate-persons': z.optional(z.strictObject({ ...common(), match: z.optional(z.array(z.enum(['email', 'phone', 'name']))), name_similarity: z.optional(z.number().check(z.gte(0.5), z.lte(1))) })),
        'duplicate-organizations': z.optional(z.strictObject({ ...common(), match: z.optional(z.array(z.enum(['name', 'website']))), name_similarity: z.optional(z.number().check(z.gte(0.5), z.lte(1))) })),
        'no-next-activity': z.optional(z.strictObject({ ...common(), min_age_days: days(0) })),
        'stale-deals': z.optional(z.strictObject({ ...common(), days: days(1), stages: z.optional(z.record(z.string(), z.int().check(z.gte(1), z.lte(3650)))) })),
        'close-date-past': z.optional(z.strictObject({ ...common(), grace_days: days(0) })),
        'empty-fields': z.optional(z.strictObject({ ...common(), deals: fieldList(), persons: fieldList(), organizations: fieldList(), account_required: z.optional(z.boolean()) })),
        'overdue-activities': z.optional(z.strictObject({ ...common(), days: days(0) })),
        'missing-currency': z.optional(z.strictObject(common())),
        'invalid-emails': z.optional(z.strictObject(common())),
        'invalid-phones': z.optional(z.strictObject(common())),
      }),
    ),
  });

type FileConfig = z.infer<ReturnType<typeof schema>>;

/** Every setting with its value (the file's, else the default). */
export interface AuditConfig {
  /** Where the settings came from (a file, or the defaults). */
  source: string;
  phoneRegion: string | undefined;
  enabled: Record<CheckId, boolean>;
  severity: Record<CheckId, Severity>;
  duplicatePersons: { match: Array<'email' | 'phone' | 'name'>; nameSimilarity: number };
  duplicateOrganizations: { match: Array<'name' | 'website'>; nameSimilarity: number };
  noNextActivity: { minAgeDays: number };
  staleDeals: { days: number; stages: Record<string, number> };
  closeDatePast: { graceDays: number };
  emptyFields: { deals: string[]; persons: string[]; organizations: string[]; accountRequired: boolean };
  overdueActivities: { days: number };
}

export const DEFAULTS = {
  nameSimilarity: 0.88,
  staleDays: 30,
} as const;

export const DEFAULT_CONFIG_FILE = join('.crmctl', 'audit.yaml');

/** The settings from `--config FILE`, else `.crmctl/audit.yaml` of `cwd` when it exists, else the defaults. */
export function loadAuditConfig(configFlag: string | undefined, cwd: string = process.cwd()): AuditConfig {
  const file = configFlag ?? (existsSync(join(cwd, DEFAULT_CONFIG_FILE)) ? join(cwd, DEFAULT_CONFIG_FILE) : undefined);
  if (!file) return resolveConfig({}, 'defaults');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--config: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseAuditConfig(text, configFlag ?? DEFAULT_CONFIG_FILE);
}

/** The file's text → settings; a problem is exit 2 naming the file, the key and the rule. */
export function parseAuditConfig(text: string, name: string): AuditConfig {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new UsageError(`${name}: not valid YAML (${(err as Error).message.split('\n')[0]})`);
  }
  return checkedConfig(raw ?? {}, name);
}

/** A settings object (parsed YAML, an MCP argument) checked key by key; exit 2 naming the first problems. */
export function checkedConfig(raw: unknown, name: string): AuditConfig {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError([{ field: name, rule: 'must be a mapping of settings (phone_region, checks)' }]);
  const s = schema();
  const unknown = unknownKeys(s, raw);
  if (unknown.length) throw new ValidationError(unknown.map((u) => ({ field: name, rule: u.rule })), `The keys each check takes: docs/health.md.`);
  const r = s.safeParse(raw, { reportInput: true });
  if (!r.success) throw new ValidationError(r.error.issues.map((i) => ({ field: `${name}: ${i.path.map(String).join('.')}`, rule: ruleText(i) })));
  return resolveConfig(r.data, name);
}

function resolveConfig(f: FileConfig, source: string): AuditConfig {
  const c = f.checks ?? {};
  const enabled = {} as Record<CheckId, boolean>;
  const sev = {} as Record<CheckId, Severity>;
  for (const id of CHECK_IDS) {
    const own = c[id] as { enabled?: boolean; severity?: Severity } | undefined;
    enabled[id] = own?.enabled ?? true;
    sev[id] = own?.severity ?? checkInfo(id).severity;
  }
  const ef = c['empty-fields'];
  return {
    source,
    phoneRegion: f.phone_region?.toUpperCase(),
    enabled,
    severity: sev,
    duplicatePersons: { match: c['duplicate-persons']?.match ?? ['email', 'phone', 'name'], nameSimilarity: c['duplicate-persons']?.name_similarity ?? DEFAULTS.nameSimilarity },
    duplicateOrganizations: { match: c['duplicate-organizations']?.match ?? ['name', 'website'], nameSimilarity: c['duplicate-organizations']?.name_similarity ?? DEFAULTS.nameSimilarity },
    noNextActivity: { minAgeDays: c['no-next-activity']?.min_age_days ?? 0 },
    staleDeals: { days: c['stale-deals']?.days ?? DEFAULTS.staleDays, stages: c['stale-deals']?.stages ?? {} },
    closeDatePast: { graceDays: c['close-date-past']?.grace_days ?? 0 },
    emptyFields: { deals: ef?.deals ?? [], persons: ef?.persons ?? [], organizations: ef?.organizations ?? [], accountRequired: ef?.account_required ?? true },
    overdueActivities: { days: c['overdue-activities']?.days ?? 0 },
  };
}

/** Only these checks (`--checks a,b`): the rest are switched off; an unknown id is exit 2 naming it. */
export function onlyChecks(cfg: AuditConfig, ids: readonly string[]): AuditConfig {
  if (!ids.length) return cfg;
  const bad = ids.filter((i) => !(CHECK_IDS as readonly string[]).includes(i));
  if (bad.length) throw new ValidationError([{ field: '--checks', rule: `unknown check ${bad.map((b) => JSON.stringify(b)).join(', ')}; the checks: ${CHECK_IDS.join(', ')}` }]);
  const enabled = {} as Record<CheckId, boolean>;
  for (const id of CHECK_IDS) enabled[id] = ids.includes(id);
  return { ...cfg, enabled };
}
