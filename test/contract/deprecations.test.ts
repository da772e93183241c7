// Which operation rows say they are deprecated is decided by src/api/deprecations.ts (the vendor's
// deprecations, written once). These tests hold that table to the vendor's own documents: the v1
// OpenAPI index (`depr=True`) and the changelog in api-facts.md §11; and every v2 way it names to
// a command that exists.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { vendorDeprecations, vendorV1Key } from '../../src/api/deprecations.js';
import { ALL_OPERATIONS } from '../../src/api/operations/index.js';
import { operationFields } from '../../src/input/operation-input.js';
import { describeWithShared, NEEDS_VENDOR_INDEX, SHARED } from '../helpers/interface-spec.js';
import { vendorIndex } from '../helpers/openapi.js';

const API_FACTS = 'reference/api-facts.md';

/** The areas of the 2026-01-01 row of api-facts §11 ("v1 twins of v2 endpoints deprecated: activities, deals (…), …"). */
function deprecatedAreas(): Set<string> {
  const row = readFileSync(`${SHARED}${API_FACTS}`, 'utf8').split('\n').find((l) => l.startsWith('| 2026-01-01 |'))!;
  const list = /deprecated:(.*?)\[deprecation-of-selected/.exec(row)![1]!.replace(/\([^)]*\)/g, '');
  return new Set(list.split(',').map((w) => w.replace(/[`\s]/g, '')).filter(Boolean));
}

describeWithShared([...NEEDS_VENDOR_INDEX, API_FACTS], 'deprecated rows match the vendor\'s documents', () => {
  it('rows marked deprecated = v1 rows the vendor marks deprecated with a v2 twin, and rows of the areas deprecated 2026-01-01 that left the v1 document', () => {
    const index = vendorIndex();
    const v1 = new Map(index.filter((e) => e.path.startsWith('/api/v1/')).map((e) => [vendorV1Key(e.method, e.path)!, e]));
    const v2 = new Set(index.filter((e) => e.path.startsWith('/api/v2/')).map((e) => `${e.method} ${e.path.slice('/api/v2'.length).replace(/\{[^}]+\}/g, '{}')}`));
    // A twin: the same method and path in v2, or for a list under one record the v2 list it filters.
    const twin = (key: string) => v2.has(key) || v2.has(`GET /${/^GET \/[^/]+\/\{\}\/([^/]+)$/.exec(key)?.[1]}`);
    const areas = deprecatedAreas();
    expect([...areas]).toEqual(['activities', 'deals', 'persons', 'organizations', 'products', 'pipelines', 'stages', 'itemSearch']);
    const expected = ALL_OPERATIONS.filter((op) => {
      const key = vendorV1Key(op.method, op.path);
      if (!key) return false;
      const e = v1.get(key);
      // In the document: deprecated there with a v2 twin. Gone from it: one of the areas whose v1 twins went.
      return e ? e.deprecated && twin(key) : areas.has(key.split(' ')[1]!.split('/')[1]!);
    });
    const marked = ALL_OPERATIONS.filter((op) => op.deprecated);
    expect(marked.map((op) => op.id).sort()).toEqual(expected.map((op) => op.id).sort());
    expect(marked.map((op) => op.id).sort()).toEqual(['persons.activities', 'persons.collection', 'persons.deals', 'persons.getV1', 'persons.listV1']);
    // And every operation the v1 document marks deprecated with a v2 twin is one the table knows.
    const known = vendorDeprecations();
    const documented = [...v1.entries()].filter(([key, e]) => e.deprecated && twin(key)).map(([key]) => key);
    expect(documented.sort()).toEqual(['GET /deals/archived', 'GET /pipelines/{}/deals', 'GET /stages/{}/deals']);
    for (const key of documented) expect(known.has(key), key).toBe(true);
  });
});

describe('the v2 way each deprecation names', () => {
  it('is a command that calls v2 and takes the flag it names', () => {
    const uses = [...new Set(vendorDeprecations().values())];
    expect(uses.length).toBeGreaterThan(30);
    for (const use of uses) {
      const [, words, flagName] = /^crmctl ([a-z -]+?)(?: --([a-z-]+) ID)?$/.exec(use)!;
      const v2 = ALL_OPERATIONS.filter((op) => op.cli.command.join(' ') === words && op.path.startsWith('/api/v2/') && !op.cli.switch);
      expect(v2.length, use).toBe(1);
      if (flagName) expect(operationFields(v2[0]!).fields.map((f) => f.flag), use).toContain(flagName);
    }
  });
});

describe('docs/interface-deviations.md', () => {
  it('lists exactly the commands that call v1 because no v2 form exists', () => {
    const text = readFileSync(new URL('../../docs/interface-deviations.md', import.meta.url), 'utf8');
    const start = text.indexOf('| area | commands that call v1 (no v2 form) |');
    const listed = text.slice(start).split('\n').slice(2).filter((l) => l.startsWith('| `crmctl ')).flatMap((l) => {
      const [, area, verbs] = /^\| `crmctl ([a-z-]+)` \| (.+) \|$/.exec(l)!;
      return verbs!.split(', ').map((v) => `${area} ${v}`);
    }).sort();
    // A command whose own form (not a --v1 switch) calls only v1 paths, and none out of support.
    const byCommand = new Map<string, typeof ALL_OPERATIONS>();
    for (const op of ALL_OPERATIONS) byCommand.set(op.cli.command.join(' '), [...(byCommand.get(op.cli.command.join(' ')) ?? []), op]);
    const v1Only = [...byCommand.entries()]
      .filter(([, ops]) => {
        const own = ops.filter((o) => !o.cli.switch);
        return own.length > 0 && own.every((o) => /^\/(api\/)?v1\//.test(o.path)) && !own.some((o) => o.deprecated);
      })
      .map(([c]) => c)
      .sort();
    expect(listed).toEqual(v1Only);
  });
});
