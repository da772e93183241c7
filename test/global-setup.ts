// Runs once around the whole suite. The contract tests read ../shared (the service interface and the
// vendor's OpenAPI documents). Where it is absent they skip; this says so loudly at the start and in the
// final lines of the run, and in CI (where ../shared is always present) a missing ../shared fails the run.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SHARED = fileURLToPath(new URL('../../shared/', import.meta.url));
const NEEDED = ['spec/service-interface.md', 'reference/openapi/pipedrive-v1.yaml', 'reference/openapi/pipedrive-v2.yaml', 'reference/openapi/index-v1.txt', 'reference/openapi/index-v2.txt'];

function missing(): string[] {
  return NEEDED.filter((f) => !existsSync(`${SHARED}${f}`));
}

function banner(lines: string[]): string {
  const bar = '!'.repeat(78);
  return `\n${bar}\n${lines.map((l) => `!! ${l}`).join('\n')}\n${bar}\n\n`;
}

const isCI = (v: string | undefined) => v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';

export default function setup(): () => void {
  const gone = missing();
  if (gone.length && isCI(process.env.CI)) {
    throw new Error(`CI run without the reference data the contract tests need: ${gone.map((f) => `${SHARED}${f}`).join(', ')}. Check out ../shared beside the repository.`);
  }
  const warning = gone.length
    ? banner([
        'CONTRACT TESTS SKIPPED: ../shared is not beside the repository.',
        `Missing: ${gone.join(', ')}`,
        'Interface coverage, vendor coverage, OpenAPI conformance and sandbox schema checks did not run.',
        'They run (and must pass) in CI, where ../shared is present.',
      ])
    : '';
  if (warning) process.stderr.write(warning);
  // Printed again after the summary, where a reader of the run's end sees it.
  return () => {
    if (warning) process.stderr.write(warning);
  };
}
