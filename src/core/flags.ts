import type { OptionSpec } from './command.js';
import { ValidationError } from './errors.js';

/**
 * A flag of a hand-written command, described once: how it is declared (its OptionSpec, which help,
 * docs, completions and the command tree read) and how its commander value becomes the typed value
 * the run function gets. The flag's name is the key it has in the command's `flags` object
 * (`dryRun` → `--dry-run`), so renaming a key renames the flag and every reader of the old name
 * fails the type check.
 */
export interface Flag<T> {
  /** The option, given the flag's long name (`dry-run`). */
  option(name: string): OptionSpec;
  /** Commander's value → the typed value; `flag` (`--dry-run`) names it in a ValidationError. */
  parse(raw: unknown, flag: string): T;
}

/** The flags a command declares, by attribute name. */
export type FlagSet = Record<string, Flag<unknown>>;

/** The typed values of a flag set: what a command's run receives. */
export type FlagValues<F extends FlagSet> = { [K in keyof F]: F[K] extends Flag<infer T> ? T : never };

interface Common {
  description: string;
  /** One letter: `-o, --out`. */
  short?: string;
  hidden?: boolean;
}

interface Valued extends Common {
  /** The placeholder in help: `--out <path>` (default `value`). */
  value?: string;
}

type Required<O, T> = O extends { required: true } ? T : O extends { default: unknown } ? T : T | undefined;

/** `dryRun` → `dry-run`: commander stores `--dry-run` under `dryRun`, so the key gives the name back. */
export function flagName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function head(o: Common, name: string): string {
  return `${o.short ? `-${o.short}, ` : ''}--${name}`;
}

function option(o: Valued & { required?: boolean; default?: unknown; choices?: readonly string[]; repeatable?: boolean }, name: string, valued = true): OptionSpec {
  return {
    flags: valued ? `${head(o, name)} <${o.value ?? 'value'}>` : head(o, name),
    description: o.description,
    ...(o.choices ? { choices: o.choices } : {}),
    // Commander shows the default in help as it would parse it from the command line (a string).
    ...(o.default !== undefined ? { defaultValue: String(o.default) } : {}),
    ...(o.repeatable ? { repeatable: true } : {}),
    ...(o.hidden ? { hidden: true } : {}),
  };
}

function missing(raw: unknown, o: { required?: boolean }, flag: string): boolean {
  if (raw !== undefined) return false;
  if (o.required) throw new ValidationError([{ field: flag, rule: 'is required' }]);
  return true;
}

/** A whole number within bounds (ports, counts, seconds); the rule names the bounds. */
function toInt(raw: unknown, flag: string, min: number | undefined, max: number | undefined): number {
  const text = String(raw).trim();
  const n = Number(text);
  if (/^-?\d+$/.test(text) && Number.isSafeInteger(n) && (min === undefined || n >= min) && (max === undefined || n <= max)) return n;
  const kind =
    min !== undefined && max !== undefined ? `an integer from ${min} to ${max}`
    : min === 1 ? 'a positive integer'
    : min === 0 ? 'a non-negative integer'
    : min !== undefined ? `an integer of at least ${min}`
    : max !== undefined ? `an integer of at most ${max}`
    : 'an integer';
  throw new ValidationError([{ field: flag, rule: `must be ${kind} (got ${JSON.stringify(raw)})` }]);
}

export const flag = {
  /** `--name`: true when given. */
  bool(o: Common): Flag<boolean> {
    return { option: (name) => option(o, name, false), parse: (raw) => Boolean(raw) };
  },

  /** `--no-name`: true unless given (commander stores `--no-browser` under `browser`). */
  negated(o: Common): Flag<boolean> {
    return { option: (name) => option(o, `no-${name}`, false), parse: (raw) => raw !== false };
  },

  /** `--name <value>`: the text as given. */
  string<O extends Valued & { required?: boolean; default?: string }>(o: O): Flag<Required<O, string>> {
    return {
      option: (name) => option(o, name),
      parse: (raw, f) => (missing(raw ?? o.default, o, f) ? undefined : String(raw ?? o.default)) as Required<O, string>,
    };
  },

  /** `--name <n>`: a whole number, checked against min and max before anything is sent. */
  int<O extends Valued & { required?: boolean; default?: number; min?: number; max?: number }>(o: O): Flag<Required<O, number>> {
    return {
      option: (name) => option({ value: 'n', ...o }, name),
      parse: (raw, f) => (missing(raw ?? o.default, o, f) ? undefined : toInt(raw ?? o.default, f, o.min, o.max)) as Required<O, number>,
    };
  },

  /** `--name <n>`: a number greater than 0, fractions allowed (seconds to wait). */
  positive<O extends Valued & { required?: boolean; default?: number }>(o: O): Flag<Required<O, number>> {
    return {
      option: (name) => option({ value: 'n', ...o }, name),
      parse: (raw, f) => {
        if (missing(raw ?? o.default, o, f)) return undefined as Required<O, number>;
        const v = raw ?? o.default;
        const n = Number(String(v).trim() || NaN);
        if (!Number.isFinite(n) || n <= 0) throw new ValidationError([{ field: f, rule: `must be a positive number${o.value ? ` of ${o.value}` : ''} (got ${JSON.stringify(v)})` }]);
        return n as Required<O, number>;
      },
    };
  },

  /** `--name <value>` limited to `choices` (help, completions and the check all read them). */
  enum<const C extends readonly string[], O extends Valued & { required?: boolean; default?: C[number] }>(choices: C, o: O): Flag<Required<O, C[number]>> {
    return {
      option: (name) => option({ ...o, choices }, name),
      parse: (raw, f) => {
        if (missing(raw ?? o.default, o, f)) return undefined as Required<O, C[number]>;
        const v = String(raw ?? o.default);
        if (!choices.includes(v)) throw new ValidationError([{ field: f, rule: `must be one of ${choices.join(', ')} (got ${JSON.stringify(v)})` }]);
        return v as Required<O, C[number]>;
      },
    };
  },

  /** `--name <value>` repeated: every value in order, [] when not given. */
  list(o: Valued): Flag<string[]> {
    return {
      option: (name) => option({ ...o, repeatable: true }, name),
      parse: (raw) => (raw === undefined ? [] : (Array.isArray(raw) ? raw : [raw]).map(String)),
    };
  },

  /** `--name <a,b>`: comma-separated words, trimmed, empty ones dropped. */
  csv<O extends Valued & { required?: boolean }>(o: O): Flag<Required<O, string[]>> {
    return {
      option: (name) => option({ value: 'list', ...o }, name),
      parse: (raw, f) => (missing(raw, o, f) ? undefined : String(raw).split(',').map((s) => s.trim()).filter(Boolean)) as Required<O, string[]>,
    };
  },
};

/** The OptionSpecs of a flag set, in declaration order. */
export function flagOptions(flags: FlagSet): OptionSpec[] {
  return Object.entries(flags).map(([key, f]) => f.option(flagName(key)));
}

/**
 * Commander's options → the typed values; every flag is parsed (so a bad value fails before any
 * request), and every flag that is missing or wrong is named in one error, not one per run.
 */
export function parseFlags<F extends FlagSet>(flags: F, opts: Record<string, unknown>): FlagValues<F> {
  const out: Record<string, unknown> = {};
  const issues: Array<{ field: string; rule: string }> = [];
  for (const [key, f] of Object.entries(flags)) {
    try {
      out[key] = f.parse(opts[key], `--${flagName(key)}`);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      issues.push(...err.issues);
    }
  }
  if (issues.length) throw new ValidationError(issues);
  return out as FlagValues<F>;
}
