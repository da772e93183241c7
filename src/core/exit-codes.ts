/**
 * The one table of exit codes. Only `main` turns errors into these numbers;
 * docs/exit-codes.md and `crmctl help exit-codes` are generated from it.
 */
export const EXIT = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  CANCELLED: 3,
  AUTH: 4,
  NOT_FOUND: 5,
  RATE_LIMITED: 6,
  PARTIAL: 7,
  CHANGES: 8,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_DESCRIPTIONS: ReadonlyArray<{ code: ExitCode; name: string; meaning: string }> = [
  { code: 0, name: 'ok', meaning: 'The command did what was asked.' },
  { code: 1, name: 'error', meaning: 'The service or the machine failed (5xx after retries, network, disk, unexpected answer).' },
  {
    code: 2,
    name: 'usage',
    meaning: 'Bad flags or input. Refused by crmctl (a field broke a rule, or a flag is missing where no prompt is possible): nothing was sent. Refused by the service (400 or 422): nothing was changed.',
  },
  { code: 3, name: 'cancelled', meaning: 'You declined a confirmation or pressed Ctrl-C at a prompt.' },
  { code: 4, name: 'auth', meaning: 'Not logged in, the token was refused after one refresh, permission denied (403: a missing scope or a user permission), or the login flow failed.' },
  { code: 5, name: 'not-found', meaning: 'The record (or route) does not exist.' },
  { code: 6, name: 'rate-limited', meaning: 'Rate-limited (the service kept answering 429 after every retry, or the daily token budget is spent: not retried, it resets at 00:00 UTC), or the daily budget is below what was asked (`crmctl budget --min`).' },
  { code: 7, name: 'partial', meaning: 'A bulk run finished but some rows failed; see the results file.' },
  { code: 8, name: 'changes', meaning: 'crmctl plan found differences between the files and the account (as terraform plan -detailed-exitcode); crmctl audit --strict found findings at or above the severity; crmctl watch found new findings at or above --fail-on. 0 means none.' },
];
