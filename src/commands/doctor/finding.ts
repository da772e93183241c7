/** One line of the doctor's report: what was checked, what was seen, and how to fix it. */
export interface Finding {
  id: 'config-file' | 'credentials' | 'token-expiry' | 'api-reachable' | 'clock-skew' | 'daily-budget' | 'auth-reachable' | 'scopes';
  title: string;
  /** skip: not applicable to this setup (does not fail the run). */
  status: 'pass' | 'fail' | 'skip';
  detail: string;
  /** A command or action that fixes a failure. */
  fix?: string;
}

export const pass = (id: Finding['id'], title: string, detail: string): Finding => ({ id, title, status: 'pass', detail });
export const fail = (id: Finding['id'], title: string, detail: string, fix: string): Finding => ({ id, title, status: 'fail', detail, fix });
export const skip = (id: Finding['id'], title: string, detail: string): Finding => ({ id, title, status: 'skip', detail });
