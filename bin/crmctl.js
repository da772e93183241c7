#!/usr/bin/env node
// `crmctl ... | head` closes the pipe early. Without a listener Node would crash with a stack trace;
// with this one the command goes on, and commands that care (export) report the closed pipe themselves.
process.stdout.on('error', (err) => {
  if (err.code !== 'EPIPE') throw err;
});
// Fast path: `--version` loads nothing else (start-up is measured by `npm run bench`).
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  process.stdout.write('0.1.0\n');
} else {
  // dist/cli is the esbuild bundle of dist/main.js (scripts/bundle.mjs): far fewer files to load at start-up.
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(process.argv.slice(2));
}
