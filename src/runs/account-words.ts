/**
 * An account as runs know it, and how messages and `runs list` name it. Apart from account.ts (which reads
 * users/me and keeps a cache under the config dir), so a command that only shows runs loads no config or
 * credentials code with its area.
 */
export interface AccountIdentity {
  origin: string;
  company_id: number | null;
  user_id: number | null;
  /** The profile the credentials came from (absent when the environment gave them). */
  profile?: string;
}

export function describeAccount(a: AccountIdentity): string {
  const who = `company ${a.company_id ?? '?'} (user ${a.user_id ?? '?'}) at ${a.origin}`;
  return a.profile ? `profile ${a.profile}: ${who}` : who;
}
