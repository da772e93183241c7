import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/api/operation.js';
import { TABLES } from '../../src/api/operations/index.js';
import { nullableKeys } from '../../src/input/fields.js';
import { liveFields, operationFields } from '../../src/input/operation-input.js';
import { cleanEnv, runCli, tempConfigDir } from '../helpers/cli.js';
import { ensureBuilt, ROOT } from './built.js';

/**
 * The bundle reads each operation's flags from dist/cli/op-fields/<area>.json (the build derived them:
 * scripts/lib/op-fields.mjs) instead of converting zod schemas at start-up. What it reads must be what
 * the live derivation gives, for every row of every table, or a command would offer other flags.
 */
const DIR = `${ROOT}dist/cli/op-fields/`;
type Stored = Record<string, { fields: unknown[]; nullable: string[] }>;

describe('start-up: the flags the build worked out are the flags the schemas give', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('every row of every table has its fields and clearable keys, equal to the live derivation', () => {
    const stored = new Map(readdirSync(DIR).map((f) => [decodeURIComponent(f.replace(/\.json$/, '')), JSON.parse(readFileSync(DIR + f, 'utf8')) as Stored]));
    const rows = Object.values(TABLES).flatMap((t) => rowsOf(t));
    expect(rows.length).toBeGreaterThan(100);
    const live: Record<string, Stored> = {};
    for (const op of rows) {
      live[op.area] ??= {};
      // JSON as stored: a field without a description has no description key.
      live[op.area]![op.key] = JSON.parse(JSON.stringify({ fields: liveFields(op), nullable: nullableKeys(op.body) }));
    }
    expect(Object.fromEntries(stored)).toEqual(live);
    // Unbundled (here) the fields are derived live: the same derivation the build stored.
    expect(JSON.parse(JSON.stringify(operationFields(TABLES.deals.list).fields))).toEqual(live.deals!.list!.fields);
  });

  it('the bundle offers the flags of the stored fields (deals list --help names its filters)', async () => {
    const r = await runCli(['deals', 'list', '--help'], { env: cleanEnv({ CRMCTL_CONFIG_DIR: tempConfigDir() }) });
    expect(r.code).toBe(0);
    const stored = (JSON.parse(readFileSync(`${DIR}deals.json`, 'utf8')) as Stored).list!.fields as Array<{ flag: string }>;
    expect(stored.length).toBeGreaterThan(3);
    for (const f of stored) expect(r.stdout).toContain(`--${f.flag} `);
  });
});
