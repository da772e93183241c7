// Typed access to query parameters. Parsing failures become 400s naming the
// parameter, the way the sandbox reports every validation failure.
import { invalid } from './errors.js';

export class Query {
  constructor(readonly params: URLSearchParams) {}

  has(name: string): boolean { return this.params.has(name); }

  /** Last value of a parameter (empty string counts as absent: clients send `x=` for "unset"). */
  str(name: string): string | undefined {
    const all = this.params.getAll(name);
    const v = all[all.length - 1];
    return v === undefined || v === '' ? undefined : v;
  }

  int(name: string, o: { min?: number; max?: number } = {}): number | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v)) throw invalid(name, 'must be an integer');
    const n = Number(v);
    if (o.min !== undefined && n < o.min) throw invalid(name, `must be at least ${o.min}`);
    if (o.max !== undefined && n > o.max) throw invalid(name, `must be at most ${o.max}`);
    return n;
  }

  /** Booleans as the service accepts them: true/false, 1/0. */
  bool(name: string): boolean | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    throw invalid(name, 'must be a boolean');
  }

  /** Lists may come as repeated keys, `name[]=`, or comma-separated values. */
  list(name: string): string[] | undefined {
    const raw = [...this.params.getAll(name), ...this.params.getAll(`${name}[]`)];
    if (raw.length === 0) return undefined;
    const out = raw.flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
    return out;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(v)) throw invalid(name, `must be one of ${allowed.join(', ')}`);
    return v as T;
  }

  /** Plain object for the request log (repeated keys become arrays). */
  toObject(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const k of new Set(this.params.keys())) {
      const all = this.params.getAll(k);
      out[k] = all.length === 1 ? all[0]! : all;
    }
    return out;
  }
}
