#!/usr/bin/env node
// Output that cannot be written. `crmctl ... | head` closes the pipe early: the command goes on
// quietly (export reports it itself). Anything else (a full disk: ENOSPC) ends the run with one clear
// line and exit 1 instead of Node's unhandled-error stack trace; nothing more can be written anyway.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') return;
  process.stderr.write(`error: could not write the output: ${err.code ?? err.message}${err.code === 'ENOSPC' ? ' (no space left on the device)' : ''}.\nhint: free space, or send the output somewhere else (--out FILE for export).\n`);
  process.exit(1);
});
// Fast path: `--version` loads nothing else (start-up is measured by `npm run bench`); package.json is
// the one place the version is written.
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if (process.argv.length === 3 && (process.argv[2] === '--help' || process.argv[2] === '-h') && !process.stdout.isTTY) {
  // Fast path: root help written to a pipe is the page the build rendered (scripts/bundle.mjs); on a
  // terminal commander wraps to its width, so the CLI renders it.
  const { readFileSync } = await import('node:fs');
  process.stdout.write(readFileSync(new URL('../dist/cli/root-help.txt', import.meta.url)));
} else {
  // dist/cli is the esbuild bundle of dist/main.js (scripts/bundle.mjs): far fewer files to load at start-up.
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(process.argv.slice(2));
}
