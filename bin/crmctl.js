#!/usr/bin/env node
// Fast path: `--version` loads nothing else (start-up is measured by `npm run bench`).
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  process.stdout.write('0.1.0\n');
} else {
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(process.argv.slice(2));
}
