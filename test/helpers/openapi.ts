import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OPENAPI_DIR } from './interface-spec.js';

type Json = Record<string, unknown>;
export interface Spec {
  paths: Record<string, Record<string, Json>>;
  components: Json;
}

const cache = new Map<string, Spec>();
/** The vendor's OpenAPI document (v2 repeats some scope keys, so duplicate keys are allowed). */
export function loadSpec(version: 'v1' | 'v2'): Spec {
  let s = cache.get(version);
  if (!s) {
    s = parse(readFileSync(`${OPENAPI_DIR}pipedrive-${version}.yaml`, 'utf8'), { uniqueKeys: false, maxAliasCount: -1 }) as Spec;
    cache.set(version, s);
  }
  return s;
}

/** Where an interface path lives in the vendor documents: /api/v1/X and /v1/X → v1 X; /api/v2/X → v2 X. */
export function locate(path: string): { version: 'v1' | 'v2'; path: string } {
  const m = /^(?:\/api)?\/(v1|v2)(\/.*)$/.exec(path);
  if (!m) throw new Error(`unexpected path form ${path}`);
  return { version: m[1] as 'v1' | 'v2', path: m[2]! };
}

export function resolve(spec: Spec, node: unknown): Json {
  let cur = node as Json;
  for (let i = 0; i < 20 && cur && typeof cur.$ref === 'string'; i++) {
    const parts = (cur.$ref as string).replace(/^#\//, '').split('/');
    let target: unknown = spec;
    for (const p of parts) target = (target as Json)[p];
    cur = target as Json;
  }
  return cur;
}

export function operation(spec: Spec, path: string, method: string): Json | undefined {
  return spec.paths[path]?.[method.toLowerCase()] as Json | undefined;
}

export function queryParamNames(spec: Spec, op: Json): string[] {
  return ((op.parameters as unknown[]) ?? []).map((p) => resolve(spec, p)).filter((p) => p.in === 'query').map((p) => String(p.name));
}

export function responseSchema(spec: Spec, op: Json, status: string): Json | undefined {
  const res = resolve(spec, (op.responses as Json)?.[status]);
  const content = (res?.content as Json | undefined)?.['application/json'] as Json | undefined;
  return content?.schema ? resolve(spec, content.schema) : undefined;
}

/**
 * A small validator for the OpenAPI 3.0 subset the vendor uses (type, nullable, properties, items,
 * enum, required, allOf/anyOf/oneOf). Returns the problems found, with JSON paths. `tolerated`: known
 * departures (the caller filters them from the result) that must not make an anyOf/oneOf branch fail either.
 */
export function validate(spec: Spec, schema: unknown, value: unknown, at = '$', out: string[] = [], tolerated: RegExp[] = []): string[] {
  const s = resolve(spec, schema);
  if (!s || typeof s !== 'object') return out;
  if (value === null) {
    if (s.nullable !== true && s.type !== undefined && !(s.allOf || s.anyOf || s.oneOf)) out.push(`${at}: null but not nullable`);
    return out;
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) validate(spec, sub, value, at, out, tolerated);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) {
      // A branch matches when its only problems are nulls the schema forgot to mark nullable (reported at the top level).
      const ok = (s[key] as unknown[]).some((sub) => validate(spec, sub, value, at, [], tolerated).every((p) => p.endsWith(': null but not nullable') || tolerated.some((t) => t.test(p))));
      if (!ok) out.push(`${at}: matches none of ${key}`);
    }
  }
  const type = s.type as string | undefined;
  const actual = Array.isArray(value) ? 'array' : typeof value;
  if (type === 'integer' && !(typeof value === 'number' && Number.isInteger(value))) out.push(`${at}: expected integer, got ${JSON.stringify(value)}`);
  else if (type === 'number' && typeof value !== 'number') out.push(`${at}: expected number, got ${actual}`);
  else if (type === 'string' && typeof value !== 'string') out.push(`${at}: expected string, got ${actual}`);
  else if (type === 'boolean' && typeof value !== 'boolean') out.push(`${at}: expected boolean, got ${actual}`);
  else if (type === 'array' && !Array.isArray(value)) out.push(`${at}: expected array, got ${actual}`);
  else if (type === 'object' && (actual !== 'object')) out.push(`${at}: expected object, got ${actual}`);
  if (Array.isArray(s.enum) && !s.enum.includes(value)) out.push(`${at}: ${JSON.stringify(value)} not in enum ${JSON.stringify(s.enum)}`);
  if (Array.isArray(value) && s.items) value.forEach((v, i) => {
    validate(spec, s.items!, v, `${at}[${i}]`, out, tolerated);
  });
  if (actual === 'object' && !Array.isArray(value)) {
    const v = value as Json;
    const props = (s.properties ?? {}) as Json;
    for (const [k, sub] of Object.entries(props)) if (k in v) validate(spec, sub, v[k], `${at}.${k}`, out, tolerated);
    for (const r of (s.required as string[] | undefined) ?? []) if (!(r in v)) out.push(`${at}: missing required ${r}`);
  }
  return out;
}

export interface VendorIndexEntry {
  method: string;
  /** As the CLI writes it: /api/v1/... or /api/v2/... */
  path: string;
  operationId: string;
  tags: string[];
  cost: number;
  scopes: string[];
  deprecated: boolean;
}

/** Every operation of the vendor's index files (index-v1.txt, index-v2.txt): method, path, cost, scopes, deprecation. */
export function vendorIndex(): VendorIndexEntry[] {
  const out: VendorIndexEntry[] = [];
  for (const version of ['v1', 'v2'] as const) {
    for (const line of readFileSync(`${OPENAPI_DIR}index-${version}.txt`, 'utf8').split('\n')) {
      const m = /^(GET|POST|PUT|PATCH|DELETE)\s+(\S+)\s+\[([^\]]+)\]\s+tags=\[([^\]]*)\]\s+cost=(\d+)\s+scopes=(.*?)\s+depr=(True|False)\s*$/.exec(line);
      if (!m) continue;
      out.push({
        method: m[1]!,
        path: `/api/${version}${m[2]!.replace(/\/$/, '')}`,
        operationId: m[3]!,
        tags: [...m[4]!.matchAll(/'([^']+)'/g)].map((t) => t[1]!),
        cost: Number(m[5]),
        scopes: m[6]!.trim() ? m[6]!.trim().split(/\s+/) : [],
        deprecated: m[7] === 'True',
      });
    }
  }
  return out;
}
