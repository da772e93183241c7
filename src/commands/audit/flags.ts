import { ValidationError } from '../../core/errors.js';
import { flag, type Flag } from '../../core/flags.js';

// Flags the audit shares with watch and digest (the same settings, read the same way).

const SEVERITY_WORDS = ['info', 'warning', 'error'] as const;

export function auditFlags() {
  return {
    config: flag.string({ value: 'file', description: 'settings of the checks (default: .crmctl/audit.yaml in the current directory, when it exists)' }),
    checks: flag.csv({ value: 'ids', description: 'run only these checks (comma-separated ids; see --list-checks)' }),
    asOf: flag.string({ value: 'date', description: 'count ages and due dates to this day, YYYY-MM-DD (default: today on the service\'s clock)' }),
    region: flag.string({ value: 'CC', description: 'country of phone numbers written without a country code, e.g. EE (default: phone_region of the settings)' }),
  };
}

/**
 * `--strict [severity]`: with no value, warning (errors and warnings fail the gate, info does not).
 * Commander gives `true` for the bare flag and the word otherwise.
 */
export function severityGate(): Flag<(typeof SEVERITY_WORDS)[number] | undefined> {
  return {
    option: (name) => ({ flags: `--${name} [severity]`, description: 'exit 8 when a finding is at or above this severity: info, warning (the default) or error' }),
    parse: (raw, f) => {
      if (raw === undefined || raw === false) return undefined;
      if (raw === true) return 'warning';
      const v = String(raw);
      if (!(SEVERITY_WORDS as readonly string[]).includes(v)) throw new ValidationError([{ field: f, rule: `must be one of ${SEVERITY_WORDS.join(', ')} (got ${JSON.stringify(v)})` }]);
      return v as (typeof SEVERITY_WORDS)[number];
    },
  };
}
