import { ValidationError } from '../../core/errors.js';

/** Parses `5xx=0.1,429=0.05,reset=0.05,after-commit=0.33,latency=20|10-50,seed=7` into the sandbox's FaultConfig. */
export function parseFaults(spec: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [key, value = ''] = part.split('=');
    const rate = (name: string) => {
      const n = Number(value);
      if (!(n >= 0 && n <= 1)) throw new ValidationError([{ field: '--faults', rule: `${key} must be a share between 0 and 1 (got ${value})` }]);
      out[name] = n;
    };
    switch (key) {
      case '5xx':
        rate('rate5xx');
        break;
      case '429':
        rate('rate429');
        break;
      case 'reset':
        rate('rateReset');
        break;
      case 'after-commit':
        rate('resetAfterCommitShare');
        break;
      case 'latency': {
        const m = /^(\d+)(?:-(\d+))?$/.exec(value);
        if (!m) throw new ValidationError([{ field: '--faults', rule: `latency must be ms or min-max ms (got ${value})` }]);
        out.latencyMs = m[2] ? [Number(m[1]), Number(m[2])] : Number(m[1]);
        break;
      }
      case 'seed':
        out.seed = Number(value);
        break;
      default:
        throw new ValidationError([{ field: '--faults', rule: `unknown fault "${key}"; use 5xx, 429, reset, after-commit, latency, seed` }]);
    }
  }
  return out;
}
