import type * as z from 'zod/mini';
import { ValidationError } from '../core/errors.js';
import type { FieldSpec } from './fields.js';

/** Zod issues as "--flag: rule" lines; the flag name is what the user typed, or the field path for --data input. */
export function issuesToError(issues: z.core.$ZodIssue[], fields: FieldSpec[], location: string): ValidationError {
  return new ValidationError(
    issues.map((i) => {
      const key = i.path.map(String).join('.');
      const field = fields.find((f) => f.key === key) ?? fields.find((f) => key.startsWith(`${f.key}.`));
      // A missing nested object (goal assignee) is answered by its members' flags.
      const members = field ? [] : fields.filter((f) => key && f.key.startsWith(`${key}.`) && f.required);
      const name = field ? `--${field.flag}` : members.length ? members.map((m) => `--${m.flag}`).join(', ') : key ? `${location}.${key}` : location;
      return { field: name, rule: ruleText(i) };
    }),
  );
}

/** One issue's rule in the words every message uses ("must be at least 1", "is required"). */
export function ruleText(i: z.core.$ZodIssue): string {
  const iss = i as z.core.$ZodIssue & { input?: unknown; expected?: string; values?: unknown[]; minimum?: number | bigint; maximum?: number | bigint; origin?: string; inclusive?: boolean };
  // A message written in a table (superRefine, { error }) says the rule best; keep it.
  if (!/^(Too (small|big)|Invalid|Expected)/.test(i.message)) return i.message;
  const plural = (n: unknown, word: string) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;
  switch (i.code) {
    case 'invalid_type':
      return iss.input === undefined ? 'is required' : `must be ${iss.expected === 'int' ? 'an integer' : `a ${iss.expected}`}`;
    case 'invalid_value':
      if ('input' in iss && iss.input === undefined) return 'is required';
      return `must be one of ${(iss.values ?? []).map(String).join(', ')}`;
    case 'invalid_union': {
      // A union of literals (visible_to 1|3|5|7) reports each branch; list the allowed values.
      const branches = ((i as unknown as { errors?: z.core.$ZodIssue[][] }).errors ?? []).flat();
      const values = branches.flatMap((b) => ((b as { values?: unknown[] }).values ?? []).map(String));
      if (iss.input === undefined) return 'is required';
      return values.length ? `must be one of ${values.join(', ')}` : i.message;
    }
    case 'too_small':
      if (iss.origin === 'string') return `must have at least ${plural(iss.minimum, 'character')}`;
      if (iss.origin === 'array') return `must have at least ${plural(iss.minimum, 'item')}`;
      return iss.inclusive === false ? `must be greater than ${iss.minimum}` : `must be at least ${iss.minimum}`;
    case 'too_big':
      if (iss.origin === 'string') return `must have at most ${plural(iss.maximum, 'character')}`;
      if (iss.origin === 'array') return `must have at most ${plural(iss.maximum, 'item')}`;
      return iss.inclusive === false ? `must be less than ${iss.maximum}` : `must be at most ${iss.maximum}`;
    case 'invalid_format':
      return i.message.replace(/^Invalid\s*/i, 'must be a valid ');
    default:
      return i.message;
  }
}
