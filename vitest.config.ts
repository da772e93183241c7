import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: keep parallelism modest so timing-sensitive loopback tests stay stable.
    maxWorkers: 2,
    pool: 'forks',
  },
});
