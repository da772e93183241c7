import { readFileSync } from 'node:fs';
import type { FieldSpec } from './fields.js';

// Set by the bundler (scripts/bundle.mjs): the bundle ships the files read here; tsc's dist/ and vitest do not.
declare const __CRMCTL_BUNDLED__: boolean | undefined;

/** What the build derived for one operation row: its command-line fields and the body keys --unset may clear. */
export interface PrecomputedFields {
  fields: FieldSpec[];
  nullable: string[];
}

/**
 * The fields of a table's operations as the build worked them out (scripts/lib/op-fields.mjs writes
 * dist/cli/op-fields/<area>.json from the same live derivation, fieldsOf + nullableKeys). Converting a
 * row's zod schemas to JSON Schema is most of what a generated command spends on its flags at start-up;
 * the build did it already. test/ux/startup-precomputed.test.ts holds the files equal to the live
 * derivation. Only frozen rows (defineTable's) are looked up: a copy with other schemas (prompts'
 * `{ ...op, query: op.params }`) keeps the id but not the fields, and is derived live.
 */
export function precomputedFields(op: object): PrecomputedFields | undefined {
  if (typeof __CRMCTL_BUNDLED__ === 'undefined' || !Object.isFrozen(op)) return undefined;
  const { area, key } = op as { area?: unknown; key?: unknown };
  if (typeof area !== 'string' || typeof key !== 'string') return undefined;
  return areaFile(area)?.[key];
}

const files = new Map<string, Record<string, PrecomputedFields> | undefined>();

function areaFile(area: string): Record<string, PrecomputedFields> | undefined {
  if (!files.has(area)) {
    // The chunk holding this code is under dist/cli/ (dist/cli/chunks/...); the files sit beside the chunks.
    const url = import.meta.url;
    const cli = url.slice(0, url.lastIndexOf('/cli/') + '/cli/'.length);
    let data: Record<string, PrecomputedFields> | undefined;
    try {
      data = JSON.parse(readFileSync(new URL(`op-fields/${encodeURIComponent(area)}.json`, cli), 'utf8')) as Record<string, PrecomputedFields>;
    } catch {
      data = undefined; // no file (a table the build did not list): derived live
    }
    files.set(area, data);
  }
  return files.get(area);
}
