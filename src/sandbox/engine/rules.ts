// Body rules of the resource engine: a writable member is described once (its type, whether it may be
// null, what it refers to) and every create/update of the resource is checked against the rules before
// anything changes. A failure is the sandbox's usual 400 "<field>: <rule>".
import { invalid } from '../http/errors.js';
import { has, isDate, type Body } from '../http/validate.js';
import type { SandboxState } from '../store/state.js';
import { allowedVisibility } from './access.js';

export interface RuleEnv { state: SandboxState; userId: number }

/** Parses one present, non-null value; throws invalid(field, rule). */
export type Parse = (v: unknown, field: string, env: RuleEnv) => unknown;

export interface Rule { parse: Parse; nullable: boolean }

const rule = (parse: Parse, nullable = false): Rule => ({ parse, nullable });

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
const V1_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A record a reference must point at: collection name and the word used in messages. */
export interface RefTarget { collection: string; noun: string; live?: (rec: Record<string, unknown>) => boolean }

export const REF = {
  user: { collection: 'users', noun: 'user', live: (u) => u.active_flag !== false },
  person: { collection: 'persons', noun: 'person' },
  organization: { collection: 'organizations', noun: 'organization' },
  deal: { collection: 'deals', noun: 'deal' },
  lead: { collection: 'leads', noun: 'lead' },
  pipeline: { collection: 'pipelines', noun: 'pipeline' },
  stage: { collection: 'stages', noun: 'stage' },
  product: { collection: 'products', noun: 'product' },
  project: { collection: 'projects', noun: 'project' },
} satisfies Record<string, RefTarget>;

function checkRef(env: RuleEnv, target: RefTarget, id: number | string, field: string): void {
  const rec = env.state.collection(target.collection).get(id) as Record<string, unknown> | undefined;
  if (!rec || (target.live && !target.live(rec))) throw invalid(field, `no ${target.noun} with id ${id}`);
}

export const r = {
  nullable(x: Rule): Rule { return { ...x, nullable: true }; },

  string(o: { max?: number; empty?: boolean } = {}): Rule {
    return rule((v, f) => {
      if (typeof v !== 'string') throw invalid(f, 'must be a string');
      if (!o.empty && v.trim() === '') throw invalid(f, 'must not be empty');
      if (o.max !== undefined && v.length > o.max) throw invalid(f, `must be at most ${o.max} characters`);
      return o.empty ? v : v.trim();
    });
  },

  int(o: { min?: number; max?: number; ref?: RefTarget } = {}): Rule {
    return rule((v, f, env) => {
      if (typeof v !== 'number' || !Number.isInteger(v)) throw invalid(f, 'must be an integer');
      if (o.min !== undefined && v < o.min) throw invalid(f, `must be at least ${o.min}`);
      if (o.max !== undefined && v > o.max) throw invalid(f, `must be at most ${o.max}`);
      if (o.ref) checkRef(env, o.ref, v, f);
      return v;
    });
  },

  /** A positive id of a record that must exist. */
  ref(target: RefTarget): Rule { return r.int({ min: 1, ref: target }); },

  uuidRef(target: RefTarget): Rule {
    return rule((v, f, env) => {
      if (typeof v !== 'string') throw invalid(f, 'must be a UUID string');
      checkRef(env, target, v, f);
      return v;
    });
  },

  number(o: { min?: number; max?: number } = {}): Rule {
    return rule((v, f) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(f, 'must be a number');
      if (o.min !== undefined && v < o.min) throw invalid(f, `must be at least ${o.min}`);
      if (o.max !== undefined && v > o.max) throw invalid(f, `must be at most ${o.max}`);
      return v;
    });
  },

  bool(): Rule {
    return rule((v, f) => {
      if (typeof v !== 'boolean') throw invalid(f, 'must be a boolean');
      return v;
    });
  },

  /** YYYY-MM-DD. */
  date(): Rule {
    return rule((v, f) => {
      if (typeof v !== 'string' || !isDate(v)) throw invalid(f, 'must be a date in YYYY-MM-DD format');
      return v;
    });
  },

  /** RFC 3339 (v2) or `YYYY-MM-DD HH:MM:SS` (v1); kept as an ISO string. */
  dateTime(): Rule {
    return rule((v, f) => {
      if (typeof v !== 'string' || !(RFC3339.test(v) || V1_TIME.test(v))) throw invalid(f, 'must be a date-time, e.g. 2025-01-31T12:00:00Z');
      const t = V1_TIME.test(v) ? Date.parse(`${v.replace(' ', 'T')}Z`) : Date.parse(v);
      if (Number.isNaN(t)) throw invalid(f, 'must be a real date-time');
      return new Date(t).toISOString();
    });
  },

  /** HH:MM (24 hours). */
  hhmm(): Rule {
    return rule((v, f) => {
      if (typeof v !== 'string' || !HHMM.test(v)) throw invalid(f, 'must be a time in HH:MM format (00:00-23:59)');
      return v;
    });
  },

  oneOf<T extends string | number>(values: readonly T[]): Rule {
    return rule((v, f) => {
      if (!(values as readonly unknown[]).includes(v)) throw invalid(f, `must be one of ${values.join(', ')}`);
      return v;
    });
  },

  /** visible_to as the company's plan allows it (number in v2 bodies). */
  visibleTo(): Rule {
    return rule((v, f, env) => {
      const allowed = allowedVisibility(env.state).map(Number);
      const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
      if (typeof n !== 'number' || !allowed.includes(n)) throw invalid(f, `must be one of ${allowed.join(', ')}`);
      return n;
    });
  },

  /** Integer ids, deduplicated; each must exist when `ref` is given. */
  ids(o: { ref?: RefTarget; max?: number } = {}): Rule {
    return rule((v, f, env) => {
      if (!Array.isArray(v)) throw invalid(f, 'must be an array of integers');
      if (o.max !== undefined && v.length > o.max) throw invalid(f, `must have at most ${o.max} items`);
      v.forEach((x, i) => {
        if (typeof x !== 'number' || !Number.isInteger(x) || x < 1) throw invalid(`${f}[${i}]`, 'must be a positive integer');
        if (o.ref) checkRef(env, o.ref, x, `${f}[${i}]`);
      });
      return [...new Set(v as number[])];
    });
  },

  /** An object whose members follow their own rules (unknown members refused). */
  object(members: Record<string, Rule>, o: { required?: string[] } = {}): Rule {
    return rule((v, f, env) => parseMembers(members, v, env, { prefix: `${f}.`, required: o.required ?? [] }));
  },

  /** An array of objects. */
  list(item: Rule, o: { min?: number; max?: number } = {}): Rule {
    return rule((v, f, env) => {
      if (!Array.isArray(v)) throw invalid(f, 'must be an array');
      if (o.min !== undefined && v.length < o.min) throw invalid(f, `must have at least ${o.min} item${o.min === 1 ? '' : 's'}`);
      if (o.max !== undefined && v.length > o.max) throw invalid(f, `must have at most ${o.max} items`);
      return v.map((x, i) => {
        if (x === null) { if (item.nullable) return null; throw invalid(`${f}[${i}]`, 'must not be null'); }
        return item.parse(x, `${f}[${i}]`, env);
      });
    });
  },

  /** Free-form value checked by the caller. */
  custom(parse: Parse): Rule { return rule(parse); },
};

export interface ParseOptions {
  /** Prefix for member names in messages (nested objects). */
  prefix?: string;
  /** Members that must be present and non-null. */
  required?: readonly string[];
  /** Members that may not be sent, with the reason. */
  refused?: Record<string, string>;
}

/** Checks an object body against member rules; returns only the members that were sent. */
export function parseMembers(members: Record<string, Rule>, body: unknown, env: RuleEnv, o: ParseOptions = {}): Body {
  const prefix = o.prefix ?? '';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid(prefix ? prefix.slice(0, -1) : 'body', 'must be a JSON object');
  const b = body as Body;
  for (const k of Object.keys(b)) {
    if (o.refused?.[k]) throw invalid(`${prefix}${k}`, o.refused[k]!);
    if (!members[k]) throw invalid(`${prefix}${k}`, prefix ? 'is not a known member' : 'is not a known field of this operation');
  }
  for (const k of o.required ?? []) if (!has(b, k) || b[k] === null) throw invalid(`${prefix}${k}`, 'is required');
  const out: Body = {};
  for (const [k, m] of Object.entries(members)) {
    if (!has(b, k)) continue;
    const v = b[k];
    if (v === null) {
      if (!m.nullable) throw invalid(`${prefix}${k}`, 'must not be null');
      out[k] = null;
    } else out[k] = m.parse(v, `${prefix}${k}`, env);
  }
  return out;
}
