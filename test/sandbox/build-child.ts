// Compiles only src/sandbox (it depends on node built-ins alone) into a temp dir,
// so tests can run server-main.js as a separate process without a full build.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

let built: string | null = null;

export function buildServerMain(): string {
  if (built) return built;
  const out = mkdtempSync(join(tmpdir(), 'sbx-build-'));
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  // Emit only: type errors are the job of `tsc -p` and the other suites; a type error
  // in some area must not stop this process test from running.
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noCheck',
    '--outDir', out, '--rootDir', join(root, 'src/sandbox'), '--module', 'NodeNext', '--moduleResolution', 'NodeNext',
    '--target', 'ES2022', '--strict', '--skipLibCheck', '--types', 'node', join(root, 'src/sandbox/server-main.ts')], { cwd: root, stdio: 'pipe' });
  // NodeNext needs to know the output is ESM.
  execFileSync(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(join(out, 'package.json'))}, '{"type":"module"}')`]);
  built = join(out, 'server-main.js');
  if (!existsSync(built)) throw new Error('server-main.js was not emitted');
  return built;
}
