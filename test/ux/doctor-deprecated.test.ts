// `crmctl doctor --deprecated [FILE]`: which commands of a script call v1 endpoints out of support
// (issue 29.12), read from the command tree and the operation rows' `deprecated` field; nothing is sent.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';

const SCRIPT = `#!/bin/sh
# nightly: crmctl persons collection (a comment, not a command)
set -e
crmctl persons list --v1 --all --json > persons.json 2>&1   # the v1 list
crmctl persons list --all > v2.json
ID=12; crmctl persons deals "$ID" --status open && crmctl persons activities $ID
CRMCTL_PROFILE=work crmctl --profile work persons get 5 --v1 | jq .
echo "crmctl persons collection"
out=$(crmctl persons collection --since "2026-01-01 00:00:00" \\
   --all)
crmctl api GET /v1/persons/3/deals
crmctl api /api/v1/leadLabels
crmctl export persons-collection --out x.ndjson
npx crmctl persons files 1 --v1
`;

const V2 = (use: string) => `use ${use} (v2)`;
const script = () => {
  const dir = mkdtempSync(join(tmpdir(), 'crmctl-script-'));
  const file = join(dir, 'nightly.sh');
  writeFileSync(file, SCRIPT);
  return file;
};
// No credentials and an empty config: the scan reads nothing from any account.
const env = () => ({ CRMCTL_CONFIG_DIR: tempConfigDir() });

describe('crmctl doctor --deprecated', () => {
  it('lists each command of a script that calls a v1 endpoint out of support, with its line and the v2 way (exit 1)', async () => {
    const file = script();
    const r = await runCli(['doctor', '--deprecated', file], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        `${file}:4  crmctl persons list --v1 --all --json`,
        `  GET /v1/persons is a v1 endpoint out of support since 2026-08-01; ${V2('crmctl persons list')}`,
        `${file}:6  crmctl persons deals $ID --status open`,
        `  GET /v1/persons/{id}/deals is a v1 endpoint out of support since 2026-08-01; ${V2('crmctl deals list --person-id ID')}`,
        `${file}:6  crmctl persons activities $ID`,
        `  GET /v1/persons/{id}/activities is a v1 endpoint out of support since 2026-08-01; ${V2('crmctl activities list --person-id ID')}`,
        `${file}:7  crmctl --profile work persons get 5 --v1`,
        `  GET /v1/persons/{id} is a v1 endpoint out of support since 2026-08-01; ${V2('crmctl persons get')}`,
        `${file}:9  crmctl persons collection --since 2026-01-01 00:00:00 --all`,
        `  GET /v1/persons/collection is a v1 endpoint out of support since 2026-08-01; ${V2('crmctl persons list')}`,
        `${file}:11  crmctl api GET /v1/persons/3/deals`,
        `  GET /v1/persons/{id}/deals is a v1 endpoint out of support since 2026-08-01; ${V2('crmctl deals list --person-id ID')}`,
        `${file}:13  crmctl export persons-collection --out x.ndjson`,
        `  GET /v1/persons/collection is a v1 endpoint out of support since 2026-08-01; ${V2('crmctl persons list')}`,
        '7 commands call v1 endpoints out of support (docs/interface-deviations.md lists what has no v2 form).',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe('error: doctor found 7 commands calling v1 endpoints out of support\n');
  });

  it('reads stdin without a FILE; --json prints one document', async () => {
    const r = await runCli(['doctor', '--deprecated', '--json'], { env: env(), stdin: 'crmctl persons deals 2\ncrmctl leads list\n' });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      ok: false,
      script: 'stdin',
      commands: [
        {
          line: 1,
          command: 'crmctl persons deals 2',
          calls: 'GET /v1/persons/{id}/deals',
          use: 'crmctl deals list --person-id ID',
          notice: 'GET /v1/persons/{id}/deals is a v1 endpoint out of support since 2026-08-01; use crmctl deals list --person-id ID (v2)',
        },
      ],
    });
  });

  it('a script without such commands passes (exit 0); a missing file is exit 2 naming the flag', async () => {
    const clean = await runCli(['doctor', '--deprecated', '-'], { env: env(), stdin: 'crmctl persons list --all\ncrmctl persons get 3\n' });
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toBe('No command of stdin calls a v1 endpoint out of support.\n');
    const missing = await runCli(['doctor', '--deprecated', '/nonexistent/nightly.sh'], { env: env() });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: --deprecated: /);
  });
});
