import type { RestoreReport } from './restore.js';

/** What a finished restore did, for people: records per kind, then what was not carried. */
export function restoreSummary(r: RestoreReport): string[] {
  const kinds = Object.entries(r.kinds).filter(([, k]) => k.in_backup > 0);
  const width = Math.max(4, ...kinds.map(([n]) => n.length));
  const created = kinds.reduce((n, [, k]) => n + k.created, 0);
  const dropped = Object.entries(r.not_carried.fields).map(([k, f]) => `${k}: ${f.join(', ')}`);
  return [
    `Restore of ${r.backup} into ${r.target}:`,
    ...kinds.map(([n, k]) => `  ${n.padEnd(width)}  ${k.created}/${k.in_backup}${k.failed ? `  (${k.failed} failed)` : ''}`),
    `${created} records created.`,
    ...(dropped.length ? [`Not carried (read-only here or service-set): ${dropped.join('; ')}.`] : []),
    ...Object.entries(r.not_carried.kinds).map(([k, why]) => `Not restored: ${k}: ${why}.`),
  ];
}
