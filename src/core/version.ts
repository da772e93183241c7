import { readFileSync } from 'node:fs';

// Set by the bundler (scripts/bundle.mjs) and by vitest from package.json, the one place the version is written.
declare const __CRMCTL_VERSION__: string | undefined;

/** crmctl's version: package.json's, injected at build time; read from package.json when running unbundled. */
export const VERSION: string = typeof __CRMCTL_VERSION__ === 'string' ? __CRMCTL_VERSION__ : versionFromPackageJson();

function versionFromPackageJson(): string {
  // Unbundled (dist/ from tsc, or src/ under a runner without the define): package.json is two levels up.
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'crmctl' && pkg.version) return pkg.version;
    } catch {
      // try the next level
    }
  }
  return '0.0.0-unknown';
}
