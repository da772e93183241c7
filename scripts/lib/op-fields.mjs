#!/usr/bin/env node
// Writes dist/cli/op-fields/<area>.json: per operation row, the command-line fields and the clearable
// body keys, derived from the zod schemas exactly as a command derives them (tsc's dist/, which has no
// such files, so the live derivation runs). The bundle reads them (src/input/precomputed-fields.ts)
// instead of converting schemas to JSON Schema at start-up. Run by scripts/bundle.mjs after each build;
// test/ux/startup-precomputed.test.ts holds them equal to the live derivation.
import { mkdirSync, writeFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const { TABLES } = await import(new URL('dist/api/operations/index.js', root).href);
const { rowsOf } = await import(new URL('dist/api/operation.js', root).href);
const { liveFields } = await import(new URL('dist/input/operation-input.js', root).href);
const { nullableKeys } = await import(new URL('dist/input/fields.js', root).href);

/** area → key → { fields, nullable } */
const byArea = new Map();
for (const table of Object.values(TABLES)) {
  for (const op of rowsOf(table)) {
    if (!byArea.has(op.area)) byArea.set(op.area, {});
    byArea.get(op.area)[op.key] = { fields: liveFields(op), nullable: nullableKeys(op.body) };
  }
}
const dir = new URL('dist/cli/op-fields/', root);
mkdirSync(dir, { recursive: true });
for (const [area, ops] of byArea) writeFileSync(new URL(`${encodeURIComponent(area)}.json`, dir), JSON.stringify(ops));
