// Hash of every file a build reads (src/, package.json, the lockfile, tsconfig.json, the bundler):
// scripts/bundle.mjs writes it beside the build, test/ux/built.ts compares it to decide a rebuild.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function sourceHash(root) {
  const h = createHash('sha256');
  const files = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/bundle.mjs', 'scripts/lib/chunk-groups.mjs', 'scripts/lib/source-hash.mjs'];
  const walk = (dir) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const p = join(dir, name);
      if (statSync(join(root, p)).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk('src');
  for (const f of files) h.update(f).update('\0').update(readFileSync(join(root, f))).update('\0');
  return h.digest('hex');
}
