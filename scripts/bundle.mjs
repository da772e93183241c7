#!/usr/bin/env node
// Bundles dist/main.js (built by tsc) into dist/cli/ with esbuild: one file per lazily imported area
// (code splitting keeps `crmctl leads` from loading other areas), dependencies inlined. Loading a few
// large files is much cheaper at start-up than resolving hundreds of small modules (zod: ~60 → ~20 ms).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync('dist/cli', { recursive: true, force: true });
await build({
  entryPoints: { main: 'dist/main.js' },
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // `open` finds its xdg-open helper next to its own file; keep it a normal dependency.
  external: ['open'],
  // Bundled CommonJS dependencies (undici, cli-table3) call require() for Node built-ins.
  banner: { js: "import { createRequire as __crmctlRequire } from 'node:module'; const require = __crmctlRequire(import.meta.url);" },
  logLevel: 'warning',
});
