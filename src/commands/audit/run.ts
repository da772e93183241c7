import type { Context } from '../../core/context.js';
import { ChangesFound } from '../../core/errors.js';
import { CHECKS } from '../../health/audit/checks.js';
import type { AuditConfig } from '../../health/audit/config.js';
import { atOrAbove, auditWithNotice, FINDING_COLUMNS, FINDING_FIELDS, settingsOf, summary, type AuditFlags } from '../../health/audit/session.js';
import type { Severity } from '../../health/types.js';
import { renderRecords } from '../../output/render.js';

export async function runAuditCommand(ctx: Context, flags: AuditFlags & { strict?: Severity; listChecks: boolean }): Promise<void> {
  const { cfg, asOf } = settingsOf(flags);
  if (flags.listChecks) {
    await renderRecords(ctx, checkRows(cfg), { columns: ['check', 'kind', 'severity', 'enabled', 'thresholds', 'summary'] });
    return;
  }
  const { findings } = await auditWithNotice(ctx, cfg, asOf);
  await renderRecords(ctx, findings, { columns: FINDING_COLUMNS, fields: FINDING_FIELDS });
  if (flags.strict) {
    const failing = atOrAbove(findings, flags.strict);
    if (failing.length) {
      // The findings are on stdout; one line on stderr says why the job fails (a CI log shows both).
      ctx.io.stderr.write(`audit --strict ${flags.strict}: ${summary(failing)} at or above ${flags.strict}; exit 8.\n`);
      throw new ChangesFound(`audit: ${failing.length} findings at or above ${flags.strict}`);
    }
  }
}

/** Each check as the settings leave it: on or off, its severity and thresholds. */
function checkRows(cfg: AuditConfig): Array<Record<string, unknown>> {
  const t: Record<string, string> = {
    'duplicate-persons': `match ${cfg.duplicatePersons.match.join(',')}; name_similarity ${cfg.duplicatePersons.nameSimilarity}`,
    'duplicate-organizations': `match ${cfg.duplicateOrganizations.match.join(',')}; name_similarity ${cfg.duplicateOrganizations.nameSimilarity}`,
    'no-next-activity': `min_age_days ${cfg.noNextActivity.minAgeDays}`,
    'stale-deals': `days ${cfg.staleDeals.days}${Object.keys(cfg.staleDeals.stages).length ? `; stages ${Object.entries(cfg.staleDeals.stages).map(([k, v]) => `${k}=${v}`).join(',')}` : ''}`,
    'close-date-past': `grace_days ${cfg.closeDatePast.graceDays}`,
    'empty-fields': `account_required ${cfg.emptyFields.accountRequired}${(['deals', 'persons', 'organizations'] as const).map((k) => (cfg.emptyFields[k].length ? `; ${k} ${cfg.emptyFields[k].join(',')}` : '')).join('')}`,
    'overdue-activities': `days ${cfg.overdueActivities.days}`,
    'missing-currency': '',
    'invalid-emails': '',
    'invalid-phones': `phone_region ${cfg.phoneRegion ?? '(none)'}`,
  };
  return CHECKS.map((c) => ({ check: c.id, kind: c.kind, severity: cfg.severity[c.id], enabled: cfg.enabled[c.id], thresholds: t[c.id] ?? '', summary: c.summary }));
}
