import { dealFieldOps } from '../operations/deal-fields.js';
import { leadLabelOps } from '../operations/lead-labels.js';
import { leadOps } from '../operations/leads.js';
import { AuthError, ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../entry-types.js';
import type { CheckReader } from '../entry-types.js';

/** Channel options configured for the company (deal field `channel`). */
export async function channelOptions(ctx: CheckReader): Promise<Array<{ id: number; label: string }>> {
  for await (const f of ctx.readAll(dealFieldOps.listV1, {})) {
    const field = f as { key?: string; options?: Array<{ id: number; label: string }> };
    if (field.key === 'channel') return field.options ?? [];
  }
  return [];
}

/**
 * Rules that need the account's data, checked with reads before the write is sent:
 * label ids exist, the channel is configured, archive_reason only while archiving,
 * and a lead keeps a person or an organization.
 */
export async function leadPreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const body = (input.body ?? {}) as Record<string, unknown>;
  const issues: Array<{ field: string; rule: string }> = [];
  try {
    if (Array.isArray(body.label_ids) && body.label_ids.length) {
      const known = new Set((((await ctx.read(leadLabelOps.list, {})) as Array<{ id: string }> | null) ?? []).map((l) => l.id));
      const missing = (body.label_ids as string[]).filter((id) => !known.has(id));
      if (missing.length) issues.push({ field: '--label-ids', rule: `no such lead label: ${missing.join(', ')} (see crmctl lead-labels list)` });
    }
    if (typeof body.channel === 'number') {
      const options = await channelOptions(ctx);
      if (!options.some((o) => o.id === body.channel)) {
        issues.push({ field: '--channel', rule: `must be a configured channel: ${options.map((o) => `${o.id} (${o.label})`).join(', ') || 'none configured'}` });
      }
    }
  } catch (err) {
    // A token without deal scopes cannot read channels; leave that rule to the service.
    if (!(err instanceof AuthError)) throw err;
    ctx.debug(`preflight skipped: ${err.message}`);
  }
  const id = input.params.id as string | undefined;
  const needsLead = id && ((body.archive_reason !== undefined && body.is_archived === undefined) || body.person_id === null || body.organization_id === null);
  if (needsLead) {
    const lead = ((await ctx.read(leadOps.get, { params: { id } })) ?? {}) as Record<string, unknown>;
    if (body.archive_reason !== undefined && body.is_archived === undefined) {
      // Since 2025-07-15 an archived lead is not editable (its reason included); a live one takes a reason only while being archived.
      issues.push(lead.is_archived === true
        ? { field: '--archive-reason', rule: `lead ${id} is archived and cannot be changed; un-archive it first (crmctl leads unarchive ${id})` }
        : { field: '--archive-reason', rule: 'only together with --is-archived true (use crmctl leads archive ID --reason TEXT)' });
    }
    const person = body.person_id === null ? null : (body.person_id ?? lead.person_id);
    const org = body.organization_id === null ? null : (body.organization_id ?? lead.organization_id);
    if (person == null && org == null) issues.push({ field: '--unset', rule: 'a lead must stay linked to a person or an organization' });
  }
  if (issues.length) throw new ValidationError(issues);
}
