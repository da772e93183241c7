import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// @ts-expect-error plain ESM helper shared with scripts/bundle.mjs (no type declarations)
import { sourceHash } from '../../scripts/lib/source-hash.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN_PATH = `${ROOT}bin/crmctl.js`;
/** tsc's output (one module per source file): what the start-up test inspects. */
export const DIST_MAIN = `${ROOT}dist/main.js`;
/** The esbuild bundle the bin loads (scripts/bundle.mjs). */
export const BUNDLE_MAIN = `${ROOT}dist/cli/main.js`;
const STAMP = `${ROOT}dist/.build-stamp`;

/**
 * Users run the bundle; tests that spawn bin/crmctl.js must run the bundle of the sources under test.
 * The build writes a hash of every file it reads; when the sources no longer match it (or there is no
 * build), this builds again, and a build that fails fails the test instead of running stale code.
 */
export function ensureBuilt(): void {
  const want = (sourceHash as (root: string) => string)(ROOT);
  if (existsSync(DIST_MAIN) && existsSync(BUNDLE_MAIN) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === want) return;
  execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${ROOT}tsconfig.json`], { cwd: ROOT, stdio: 'pipe' });
  execFileSync(process.execPath, [`${ROOT}scripts/bundle.mjs`], { cwd: ROOT, stdio: 'pipe' });
}
