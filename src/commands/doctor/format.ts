import { safeLines, safeText } from '../../output/safe-text.js';
import type { Finding } from './finding.js';

const MARK = { pass: '✓', fail: '✗', skip: '-' } as const;

/** Human report: one line per check, the fix indented under each failure. */
export async function formatReport(findings: Finding[], profile: string, color: boolean): Promise<string> {
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level: color ? 1 : 0 });
  const paint = { pass: c.green, fail: c.red, skip: c.dim } as const;
  const width = Math.max(...findings.map((f) => f.title.length));
  // Details quote what the service and the environment said: shown safe before our colours are added.
  const lines = [`crmctl doctor — profile ${safeText(profile)}`, ''];
  for (const f of findings) {
    lines.push(`${paint[f.status](MARK[f.status])} ${c.bold(f.title.padEnd(width))}  ${safeLines(f.detail)}`);
    if (f.status === 'fail' && f.fix) lines.push(`  ${' '.repeat(width)}  ${c.yellow('fix:')} ${safeLines(f.fix)}`);
  }
  const failed = findings.filter((f) => f.status === 'fail').length;
  lines.push('', failed ? c.red(`${failed} problem${failed === 1 ? '' : 's'} found.`) : c.green('All checks passed.'), '');
  return lines.join('\n');
}
