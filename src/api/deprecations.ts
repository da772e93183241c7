import type { Deprecation } from '../core/deprecation.js';

// The vendor's deprecations of v1 operations that have a v2 form (api-facts §10-11; the v1 OpenAPI
// document's `deprecated: true`), each with the command that does the job in v2. An operation row
// gets its `deprecated` field from here (defineTable), so the fact is written once, not per row.

/**
 * [deprecation-of-selected-api-v1-endpoints], 2026-01-01, and [deprecated-apiv1-endpoints-become-
 * out-of-support], 2026-08-01: no fixes, no SLA, "may be changed or removed without further notice".
 */
const V1_TWINS = { since: '2026-01-01', outOfSupport: '2026-08-01' } as const;

/** Areas whose whole v1 CRUD was deprecated: the v2 form is the same verb of the same command. */
const CRUD_AREAS = ['activities', 'deals', 'persons', 'organizations', 'products', 'pipelines', 'stages'];
/** Of those, the ones whose v1 search was deprecated for a v2 search. */
const SEARCH_AREAS = ['deals', 'persons', 'organizations', 'products'];

/**
 * The other deprecated v1 operations with a v2 way: lists under one record (v2 filters the area's
 * list instead), the persons collection, item search, and what the v1 document itself marks
 * deprecated and names a v2 replacement for (archived deals, a pipeline's or a stage's deals).
 */
const OTHER_TWINS: Record<string, string> = {
  'GET /persons/collection': 'crmctl persons list',
  'GET /persons/{}/activities': 'crmctl activities list --person-id ID',
  'GET /persons/{}/deals': 'crmctl deals list --person-id ID',
  'GET /deals/{}/activities': 'crmctl activities list --deal-id ID',
  'GET /deals/{}/persons': 'crmctl persons list --deal-id ID',
  'GET /itemSearch': 'crmctl search items',
  'GET /itemSearch/field': 'crmctl search field',
  'GET /deals/archived': 'crmctl deals archived',
  'GET /pipelines/{}/deals': 'crmctl deals list --pipeline-id ID',
  'GET /stages/{}/deals': 'crmctl deals list --stage-id ID',
};

let twins: Map<string, string> | undefined;

/** "METHOD /vendor/path" (placeholders as {}) → the v2 command line. */
function v2Ways(): Map<string, string> {
  if (twins) return twins;
  twins = new Map(Object.entries(OTHER_TWINS));
  for (const a of CRUD_AREAS) {
    for (const [key, verb] of [[`GET /${a}`, 'list'], [`GET /${a}/{}`, 'get'], [`POST /${a}`, 'create'], [`PUT /${a}/{}`, 'update'], [`DELETE /${a}/{}`, 'delete']]) {
      twins.set(key!, `crmctl ${a} ${verb}`);
    }
  }
  for (const a of SEARCH_AREAS) twins.set(`GET /${a}/search`, `crmctl ${a} search`);
  return twins;
}

/** The v1 form of a path as the vendor's v1 document writes it: /v1/x and /api/v1/x are /x; placeholders as {}. */
export function vendorV1Key(method: string, path: string): string | undefined {
  const m = /^\/(?:api\/)?v1(\/.*)$/.exec(path);
  return m ? `${method} ${m[1]!.replace(/\{[^}]+\}/g, '{}').replace(/\/+$/, '')}` : undefined;
}

/** The deprecation of an operation, when the vendor deprecated its method and path (v1 paths only). */
export function deprecationOf(method: string, path: string): Deprecation | undefined {
  const key = vendorV1Key(method, path);
  const use = key ? v2Ways().get(key) : undefined;
  return use ? { ...V1_TWINS, use } : undefined;
}

/** Every deprecated v1 operation the vendor names, with its v2 way (the test compares them with the v1 document). */
export function vendorDeprecations(): ReadonlyMap<string, string> {
  return v2Ways();
}
