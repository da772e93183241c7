import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // The bundle gets the version the same way (scripts/bundle.mjs): package.json is its one source.
  define: { __CRMCTL_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: keep parallelism modest so timing-sensitive loopback tests stay stable.
    maxWorkers: 2,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
  },
});
