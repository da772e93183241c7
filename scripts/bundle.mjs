#!/usr/bin/env node
// Bundles dist/main.js (built by tsc) into dist/cli/ with esbuild: one file per lazily imported area
// (code splitting keeps `crmctl leads` from loading other areas), dependencies inlined. Loading a few
// large files is much cheaper at start-up than resolving hundreds of small modules (zod: ~60 → ~20 ms).
// Source maps (tsc's, carried through) let a crash report name src/ files and lines; they are read only
// when something crashes (src/core/crash-report.ts), so start-up does not pay for them.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { groupChunks, groupImports } from './lib/chunk-groups.mjs';
import { sourceHash } from './lib/source-hash.mjs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const REQUIRE_BANNER = "import { createRequire as __crmctlRequire } from 'node:module'; const require = __crmctlRequire(import.meta.url);";
rmSync('dist/cli', { recursive: true, force: true });
const options = {
  entryPoints: { main: 'dist/main.js' },
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: !process.env.BUNDLE_NO_MINIFY,
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // package.json is the one place the version is written.
  // __CRMCTL_BUNDLED__: the bundle ships dist/cli/op-fields (below), read by src/input/precomputed-fields.ts.
  define: { __CRMCTL_VERSION__: JSON.stringify(pkg.version), __CRMCTL_BUNDLED__: 'true' },
  // `open` finds its xdg-open helper next to its own file; keep it a normal dependency. It is the only
  // one: package.json lists the inlined libraries as devDependencies (needed to build, not to run) and
  // ships `open` inside the tarball (bundleDependencies), so installing crmctl needs no registry.
  // "files" holds dist/cli, not tsc's per-file dist/ (test/ux/pack.test.ts).
  // @napi-rs/keyring has native binaries per platform: an optional dependency, imported lazily inside
  // try/catch (src/config/secret-store.ts), so an install without it falls back to the config file.
  external: ['open', '@napi-rs/keyring'],
  // Bundled CommonJS dependencies (undici, cli-table3) call require() for Node built-ins. esbuild puts
  // the banner in every file; dropUnusedRequire() below keeps it only where `require` is used.
  banner: { js: REQUIRE_BANNER },
  logLevel: 'warning',
  metafile: true,
};
const plugins = [englishOnlyZodLocales(), lazyChildProcessForCommander()];
// First pass: which entries reach which modules; second: the bundle, its chunks grouped (lib/chunk-groups.mjs).
const first = await build({ ...options, write: false, plugins });
const result = await build({ ...options, plugins: [...plugins, groupChunks(groupImports(first.metafile))] });

/**
 * zod's `z` namespace re-exports every locale (`z.locales`, ~60 files), so all of them land in the
 * chunk every command loads. crmctl writes its own messages and uses zod's default English one; the
 * locales index is replaced by English only (a third of the zod chunk, parsed on every start-up).
 */
function englishOnlyZodLocales() {
  return {
    name: 'zod-english-only',
    setup(b) {
      b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer) ? { path: 'zod-locales-en', namespace: 'crmctl-stub' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'crmctl-stub' }, () => ({
        contents: "export { default as en } from 'zod/v4/locales/en.js';",
        resolveDir: process.cwd(),
        loader: 'js',
      }));
    },
  };
}

/**
 * commander requires `node:child_process` at load for executable subcommands, which crmctl does not
 * use; loading it compiles child_process, net, dgram and streams on every start-up (`crmctl --help`
 * loaded nothing else of them). commander gets a stand-in that requires the real module on first use.
 */
function lazyChildProcessForCommander() {
  return {
    name: 'commander-lazy-child-process',
    setup(b) {
      b.onResolve({ filter: /^node:child_process$/ }, (args) =>
        /[\\/]commander[\\/]lib[\\/]command\.js$/.test(args.importer) ? { path: 'commander-child-process', namespace: 'crmctl-lazy' } : undefined,
      );
      b.onLoad({ filter: /^commander-child-process$/, namespace: 'crmctl-lazy' }, () => ({
        contents: "let real; module.exports = new Proxy({}, { get: (_, key) => (real ??= require('node:child_process'))[key] });",
        loader: 'js',
      }));
    },
  };
}

dropUnusedRequire(Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')));

/**
 * The `require` banner where nothing uses it is a createRequire() call per file at start-up (a table
 * command loads 8 files; only esbuild's runtime helpers and a few libraries need it). The line stays,
 * empty, so the source maps keep their line numbers.
 */
function dropUnusedRequire(files) {
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    if (!text.startsWith(REQUIRE_BANNER)) continue;
    if (/\brequire\b/.test(text.slice(REQUIRE_BANNER.length))) continue;
    writeFileSync(f, text.slice(REQUIRE_BANNER.length));
  }
}

// BUNDLE_METAFILE=path writes esbuild's metafile (which source went into which chunk) for start-up work.
if (process.env.BUNDLE_METAFILE) writeFileSync(process.env.BUNDLE_METAFILE, JSON.stringify(result.metafile));

// The fields of every operation row, worked out once here instead of at each start-up (scripts/lib/op-fields.mjs).
// Written before the root help below, which runs the bundle.
execFileSync(process.execPath, ['scripts/lib/op-fields.mjs'], { stdio: 'inherit' });

// `crmctl --help` with its output piped (bin/crmctl.js's fast path) prints this file instead of loading
// the CLI: the page commander prints for that command line, rendered by the bundle just built (a child
// with piped stdout, so commander wraps at its default width as it would for the user; an empty
// environment, so nothing from the shell of the build leaks in). test/ux/root-help.test.ts compares.
writeFileSync(
  'dist/cli/root-help.txt',
  execFileSync(process.execPath, ['--input-type=module', '-e', "const { main } = await import('./dist/cli/main.js'); process.exitCode = await main(['--help']);"], { env: {}, stdio: ['ignore', 'pipe', 'inherit'] }),
);

// What this build was made from: test/ux/built.ts rebuilds when the sources no longer match.
writeFileSync('dist/.build-stamp', `${sourceHash('.')}\n`);
