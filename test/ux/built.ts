import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN_PATH = `${ROOT}bin/crmctl.js`;
/** tsc's output (one module per source file): what the start-up test inspects. */
export const DIST_MAIN = `${ROOT}dist/main.js`;
/** The esbuild bundle the bin loads (scripts/bundle.mjs). */
export const BUNDLE_MAIN = `${ROOT}dist/cli/main.js`;

/**
 * The real bin runs dist/: `npm test` builds first (tsc + bundle); a bare `npx vitest run test/ux`
 * builds here when the output is missing or older than the sources these tests exercise.
 */
export function ensureBuilt(): void {
  const sources = [
    ...['src/prompts', 'src/commands/doctor'].flatMap((d) => readdirSync(`${ROOT}${d}`).map((f) => `${ROOT}${d}/${f}`)),
    `${ROOT}src/commands/from-operation.ts`,
    `${ROOT}src/main.ts`,
  ];
  const newest = Math.max(...sources.map((s) => statSync(s).mtimeMs));
  const outputs = [DIST_MAIN, BUNDLE_MAIN];
  if (outputs.every((o) => existsSync(o) && statSync(o).mtimeMs >= newest)) return;
  try {
    execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${ROOT}tsconfig.json`], { cwd: ROOT, stdio: 'pipe' });
  } catch {
    // Type errors elsewhere in the tree still emit JavaScript; the tests show whether it runs.
  }
  execFileSync(process.execPath, [`${ROOT}scripts/bundle.mjs`], { cwd: ROOT, stdio: 'pipe' });
}
