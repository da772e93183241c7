// `crmctl help <path...>` prints exactly what `<path...> --help` prints, at any depth, and every area
// and group page shows examples. Runs the bundle users run (its own `main`, in this process).
import { PassThrough, Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IO } from '../../src/core/io.js';
import { AREAS } from '../../src/commands/areas.js';
import { flatten, type TreeNode } from '../../src/docs/tree.js';
import { commandTree } from '../../src/program.js';
import { cleanEnv } from '../helpers/cli.js';
import { BUNDLE_MAIN, ensureBuilt } from './built.js';

type Main = typeof import('../../src/main.js').main;
let bundledMain: Main;
let tree: TreeNode;

beforeAll(async () => {
  ensureBuilt();
  bundledMain = ((await import(pathToFileURL(BUNDLE_MAIN).href)) as { main: Main }).main;
  tree = await commandTree();
}, 120_000);

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let out = '';
  let err = '';
  const stdout = new PassThrough().on('data', (d) => (out += d));
  const stderr = new PassThrough().on('data', (d) => (err += d));
  const io: IO = { stdin: Readable.from([]), stdout, stderr, isStdinTTY: false, isStdoutTTY: false, isStderrTTY: false, columns: 0 };
  const code = await bundledMain(args, io, cleanEnv());
  return { code, stdout: out, stderr: err };
}

describe('crmctl help <path...>', () => {
  const SAMPLE: Array<{ path: string[]; usage: string }> = [
    { path: ['deals'], usage: 'crmctl deals' },
    { path: ['deals', 'create'], usage: 'crmctl deals create' },
    { path: ['deals', 'products'], usage: 'crmctl deals products' },
    { path: ['deals', 'products', 'add'], usage: 'crmctl deals products add' },
    { path: ['leads', 'list'], usage: 'crmctl leads list' },
    { path: ['auth', 'profiles'], usage: 'crmctl auth profiles' },
    { path: ['orgs', 'list'], usage: 'crmctl organizations list' },
    { path: ['doctor'], usage: 'crmctl doctor' },
  ];

  it.each(SAMPLE)('help $path prints the same page as $path --help', async ({ path, usage }) => {
    const viaHelp = await run(['help', ...path]);
    const viaFlag = await run([...path, '--help']);
    expect(viaFlag.code).toBe(0);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stderr).toBe('');
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    // The verb's own page, not its area's.
    expect(viaHelp.stdout.split('\n')[0]).toMatch(new RegExp(`^Usage: ${usage} `));
  });

  it('a leaf page reached through help shows its own flags and examples', async () => {
    const r = await run(['help', 'deals', 'products', 'add']);
    expect(r.stdout).toContain('--product-id');
    expect(r.stdout).toMatch(/\nExamples:\n {2}\$ crmctl deals products add /);
  });

  it('help topics still print their text', async () => {
    const r = await run(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Exit codes of crmctl');
  });

  it('an unknown first word exits 2 naming it and the topics', async () => {
    const r = await run(['help', 'nosuch', 'list']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "error: unknown command or help topic 'nosuch'\n" +
        'hint: Commands: crmctl --help. Topics: crmctl help exit-codes, crmctl help environment, crmctl help output.\n',
    );
  });
});

describe('area and group pages have examples', () => {
  it('every area of the registry: <area> --help has an Examples section with commands of that area', async () => {
    const missing: string[] = [];
    for (const area of AREAS) {
      const r = await run([area.name, '--help']);
      if (r.code !== 0 || !new RegExp(`\\nExamples:\\n {2}\\$ crmctl ${area.name}( |\\n|$)`).test(r.stdout)) missing.push(area.name);
    }
    expect(missing).toEqual([]);
    expect(AREAS.length).toBeGreaterThan(40);
  }, 120_000);

  it('every group below an area (deals products, auth profiles...) too', async () => {
    const groups = flatten(tree).filter((n) => n.path.length > 1 && n.children.length);
    const missing: string[] = [];
    for (const g of groups) {
      const r = await run([...g.path, '--help']);
      if (!r.stdout.includes(`\nExamples:\n  $ crmctl ${g.path.join(' ')} `)) missing.push(g.path.join(' '));
    }
    expect(missing).toEqual([]);
    expect(groups.length).toBeGreaterThan(10);
  }, 120_000);

  it('the examples block shows the list, get and create examples first', async () => {
    const r = await run(['deals', '--help']);
    const block = r.stdout.slice(r.stdout.indexOf('\nExamples:\n'));
    const lines = block.split('\n').filter((l) => l.startsWith('  $ '));
    expect(lines.map((l) => l.split(' ').slice(3, 6).join(' '))).toEqual(['crmctl deals list', 'crmctl deals get', 'crmctl deals create']);
  });
});

// A command line builds only the command it names (src/program.ts `runnable`); help, the root page and
// suggestions still see the whole tree.
describe('only the named command is built; help and suggestions see every command', () => {
  it('`crmctl --help deals` is the root page, listing every area', async () => {
    const root = await run(['--help']);
    const r = await run(['--help', 'deals']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(root.stdout);
    for (const a of AREAS) expect(r.stdout).toContain(`\n  ${a.name}`);
  });

  it('a misspelt command gets the nearest one, at any depth, exit 2', async () => {
    expect(await run(['deals', 'lst'])).toEqual({ code: 2, stdout: '', stderr: "error: unknown command 'lst'\n(Did you mean list?)\n" });
    expect(await run(['deals', 'products', 'lst'])).toEqual({ code: 2, stdout: '', stderr: "error: unknown command 'lst'\n(Did you mean list?)\n" });
  });

  it('a named command still refuses an unknown option of its own', async () => {
    const r = await run(['deals', 'list', '--bogus']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: "error: unknown option '--bogus'\n" });
  });
});
