import { describe, expect, it } from 'vitest';
import { dealOps } from '../../src/api/operations/deals.js';
import { fileOps } from '../../src/api/operations/files.js';
import { operationOptions, rowFlags } from '../../src/commands/operation-command.js';
import { defineCommand } from '../../src/core/define-command.js';
import { flag, flagOptions, parseFlags } from '../../src/core/flags.js';
import { ValidationError } from '../../src/core/errors.js';
import { runBin } from '../helpers/cli.js';

// A command's flags are described once; the run function's `flags` are typed from that description.
// The @ts-expect-error lines are the test: tsc -p tsconfig.test.json fails if reading an undeclared
// flag (a renamed one) or using a value as the wrong type ever compiles.
const flags = {
  dryRun: flag.bool({ description: 'send nothing' }),
  limit: flag.int({ min: 1, description: 'at most this many' }),
  state: flag.string({ value: 'file', required: true, description: 'state file' }),
  seed: flag.enum(['demo', 'empty'], { value: 'name', default: 'demo', description: 'seed' }),
  file: flag.list({ short: 'f', value: 'path', description: 'a file; repeat for more' }),
  browser: flag.negated({ description: 'do not open a browser' }),
};

defineCommand({
  path: ['example'],
  summary: 'type-level example',
  examples: ['crmctl example'],
  flags,
  async run(_ctx, { flags: f }) {
    const dry: boolean = f.dryRun;
    const limit: number | undefined = f.limit;
    const state: string = f.state;
    const seed: 'demo' | 'empty' = f.seed;
    const files: string[] = f.file;
    const browser: boolean = f.browser;
    // @ts-expect-error a flag that is not declared (say --dry-run renamed to --dryrun) does not compile
    void f.dryrun;
    // @ts-expect-error an optional integer may be undefined
    const n: number = f.limit;
    // @ts-expect-error an enum flag is its choices, not any string
    const other: 'other' = f.seed;
    void [dry, limit, state, seed, files, browser, n, other];
  },
});

// A generated command's fixed flags (--file, --data, --unset, --field, --names) come from the same
// builders: collectFlags and runFromFlags read them typed, so a renamed one stops compiling there too.
const row = parseFlags(rowFlags(dealOps.update, []), { field: ['Budget=5'], names: true, file: 'x.pdf' });
const assignments: string[] = row.field;
const asNames: boolean = row.names;
const upload: string | undefined = row.file;
// @ts-expect-error --field renamed to --fields: the readers of the old key do not compile
void row.fields;
// @ts-expect-error --file is optional (prepareUpload names the missing file): not always a string
const always: string = row.file;
void [assignments, asNames, upload, always];

describe('typed flags', () => {
  it('generated commands declare --field, --names and --file through the builders (help, docs and completions unchanged)', () => {
    const update = operationOptions(dealOps.update);
    expect(update).toContainEqual({ flags: '--field <NAME=VALUE>', description: expect.stringMatching(/^a deal custom field by name/), repeatable: true });
    expect(update.map((o) => o.flags)).not.toContain('--names');
    expect(operationOptions(dealOps.list)).toContainEqual({ flags: '--names', description: expect.stringMatching(/^custom fields under their names/) });
    expect(operationOptions(fileOps.upload)[0]).toEqual({ flags: '--file <path>', description: 'the file to send (- reads stdin); required' });
    expect(row).toEqual({ file: 'x.pdf', data: undefined, unset: undefined, field: ['Budget=5'], names: true });
  });

  it('declares the options help, docs and completions read, named from the keys', () => {
    expect(flagOptions(flags)).toEqual([
      { flags: '--dry-run', description: 'send nothing' },
      { flags: '--limit <n>', description: 'at most this many' },
      { flags: '--state <file>', description: 'state file' },
      { flags: '--seed <name>', description: 'seed', choices: ['demo', 'empty'], defaultValue: 'demo' },
      { flags: '-f, --file <path>', description: 'a file; repeat for more', repeatable: true },
      { flags: '--no-browser', description: 'do not open a browser' },
    ]);
  });

  it('parses once: integers, defaults, lists, negated switches', () => {
    expect(parseFlags(flags, { limit: '20', state: 's.json', file: ['a', 'b'], browser: false })).toEqual({
      dryRun: false, limit: 20, state: 's.json', seed: 'demo', file: ['a', 'b'], browser: false,
    });
  });

  it('names the flag and the rule (a ValidationError: exit 2)', () => {
    const issue = (opts: Record<string, unknown>) => {
      try {
        parseFlags(flags, opts);
      } catch (err) {
        return err instanceof ValidationError ? err.message : `not a ValidationError: ${String(err)}`;
      }
      return 'accepted';
    };
    expect(issue({ state: 's', limit: '0' })).toBe('--limit: must be a positive integer (got "0")');
    expect(issue({ state: 's', limit: '2.5' })).toBe('--limit: must be a positive integer (got "2.5")');
    expect(issue({})).toBe('--state: is required');
    expect(issue({ state: 's', seed: 'full' })).toBe('--seed: must be one of demo, empty (got "full")');
  });

  it('a bad value on the command line is exit 2 before anything is sent', async () => {
    const r = await runBin(['import', 'leads', '--file', 'rows.ndjson', '--concurrency', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--concurrency: must be an integer from 1 to 64 (got "0")');
  });
});
