import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN_PATH = `${ROOT}bin/crmctl.js`;
export const DIST_MAIN = `${ROOT}dist/main.js`;

/**
 * The real bin runs dist/: `npm test` builds first; a bare `npx vitest run test/ux` builds here
 * when dist/ is missing or older than the sources these tests exercise.
 */
export function ensureBuilt(): void {
  const probes = ['src/prompts/missing.ts', 'src/commands/doctor/index.ts', 'src/commands/from-operation.ts'];
  const newest = Math.max(...probes.map((p) => statSync(`${ROOT}${p}`).mtimeMs));
  if (existsSync(DIST_MAIN) && existsSync(`${ROOT}dist/prompts/missing.js`) && statSync(`${ROOT}dist/prompts/missing.js`).mtimeMs >= newest) return;
  try {
    execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${ROOT}tsconfig.json`], { stdio: 'pipe' });
  } catch {
    // Type errors elsewhere in the tree still emit JavaScript; the tests below show whether it runs.
  }
}
