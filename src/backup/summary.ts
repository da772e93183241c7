import type { Manifest } from './format.js';

/** What a finished backup holds, for people: one line per record kind with records, then the totals. */
export function summaryLines(dir: string, m: Manifest): string[] {
  const kinds = Object.entries(m.kinds).filter(([, k]) => !k.reference);
  const total = kinds.reduce((n, [, k]) => n + k.count, 0);
  const who = `${m.account.company_name ?? 'company'} (company ${m.account.company_id ?? '?'} at ${m.account.api_origin})`;
  const width = Math.max(...kinds.map(([name]) => name.length));
  return [
    `Backup of ${who} in ${dir}, from ${m.started_at} to ${m.finished_at} (service time):`,
    ...kinds.filter(([, k]) => k.count > 0).map(([name, k]) => `  ${name.padEnd(width)}  ${k.count.toLocaleString('en-US')}`),
    `${total.toLocaleString('en-US')} records, ${m.files.count} files' bytes (${m.files.bytes.toLocaleString('en-US')} bytes)${m.options.skip.length ? `; left out: ${m.options.skip.join(', ')}` : ''}. Cost: ${m.cost.spent.toLocaleString('en-US')}.`,
  ];
}
