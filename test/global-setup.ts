// Runs once around the whole suite. It rebuilds the bundle when the sources changed (ensureBuilt), and
// it reports on ../shared: the contract tests read the service interface and the vendor's OpenAPI
// documents there. Where it is absent they skip (test/helpers/interface-spec.ts); this says so loudly
// at the start and in the final lines of the run.
//
// A missing ../shared fails the run only when CRMCTL_REQUIRE_SHARED says so: this project's CI sets it
// (.ci/run), because there the reference data is checked out beside the clone and a skip would hide a
// broken checkout. `CI` alone decides nothing: a user's clone has no ../shared, and their CI sets CI=true.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUNDLE_MAIN, DIST_MAIN, ensureBuilt } from './ux/built.js';

const SHARED = fileURLToPath(new URL('../../shared/', import.meta.url));
const NEEDED = ['spec/service-interface.md', 'reference/openapi/pipedrive-v1.yaml', 'reference/openapi/pipedrive-v2.yaml', 'reference/openapi/index-v1.txt', 'reference/openapi/index-v2.txt'];

function missing(): string[] {
  return NEEDED.filter((f) => !existsSync(`${SHARED}${f}`));
}

function banner(lines: string[]): string {
  const bar = '!'.repeat(78);
  return `\n${bar}\n${lines.map((l) => `!! ${l}`).join('\n')}\n${bar}\n\n`;
}

/** `1`/`true`/`yes` (any case) turn the requirement on; unset, empty, `0`, `false` or `no` leave it off. */
export function requiresShared(v: string | undefined): boolean {
  return v !== undefined && /^(1|true|yes)$/i.test(v.trim());
}

export default function setup(): () => void {
  // Tests run the bundle users run (spawned, or in-process through runBin). A build the sources have moved
  // past is rebuilt once, here, before the workers start, rather than by whichever worker asks first within
  // its test's timeout. A clone never built is left alone: `npm test` builds first, a test that runs the
  // bundle builds it when it needs it (ensureBuilt), and `npx vitest run test/contract` pays for no build.
  if (existsSync(DIST_MAIN) || existsSync(BUNDLE_MAIN)) ensureBuilt();
  const gone = missing();
  if (gone.length && requiresShared(process.env.CRMCTL_REQUIRE_SHARED)) {
    throw new Error(`CRMCTL_REQUIRE_SHARED is set, but the reference data the contract tests need is missing: ${gone.map((f) => `${SHARED}${f}`).join(', ')}. Check out ../shared beside the repository, or unset CRMCTL_REQUIRE_SHARED to skip the contract tests.`);
  }
  const warning = gone.length
    ? banner([
        'CONTRACT TESTS SKIPPED: ../shared is not beside the repository.',
        `Missing: ${gone.join(', ')}`,
        'Interface coverage, vendor coverage, OpenAPI conformance and sandbox schema checks did not run.',
        "They run (and must pass) in this project's CI: .ci/run sets CRMCTL_REQUIRE_SHARED=1 with ../shared beside the clone.",
      ])
    : '';
  if (warning) process.stderr.write(warning);
  // Printed again after the summary, where a reader of the run's end sees it.
  return () => {
    if (warning) process.stderr.write(warning);
  };
}
