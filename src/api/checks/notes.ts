import { leadOps } from '../operations/leads.js';
import { noteOps, PIN_FLAGS, PIN_TARGET, targetFlag } from '../operations/notes.js';
import { AuthError, NotFoundError, ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../entry-types.js';
import type { CheckReader } from '../entry-types.js';

/**
 * An issue when the lead does not exist; nothing when it does or when this token may not read leads
 * (then the service has the last word). Shared with the mailbox commands, which link threads to leads.
 */
export async function missingLead(ctx: CheckReader, leadId: unknown, flag = '--lead-id'): Promise<{ field: string; rule: string } | undefined> {
  if (typeof leadId !== 'string') return undefined;
  try {
    await ctx.read(leadOps.get, { params: { id: leadId } });
    return undefined;
  } catch (err) {
    if (err instanceof NotFoundError) return { field: flag, rule: `no such lead: ${leadId} (see crmctl leads list)` };
    if (err instanceof AuthError) {
      ctx.debug(`preflight skipped: ${err.message}`);
      return undefined;
    }
    throw err;
  }
}

/**
 * Rules of a note write that need account data, checked with reads before the write:
 * the lead exists (the other targets have no read operation in the interface, the service checks them),
 * and on update a pinned flag of 1 without its target id in the body needs the note to be attached there.
 */
export async function notePreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const body = (input.body ?? {}) as Record<string, unknown>;
  const issues: Array<{ field: string; rule: string }> = [];
  const lead = await missingLead(ctx, body.lead_id);
  if (lead) issues.push(lead);
  const noteId = input.params.id;
  const pins = Object.entries(PIN_TARGET).filter(([flag, target]) => body[flag] === 1 && body[target] === undefined);
  if (noteId !== undefined && pins.length) {
    const note = ((await ctx.read(noteOps.get, { params: { id: noteId as number } })) ?? {}) as Record<string, unknown>;
    for (const [flag, target] of pins) {
      if (note[target] == null) {
        issues.push({ field: `--${PIN_FLAGS[flag]}`, rule: `needs ${targetFlag(target)}: note ${String(noteId)} is not attached to a ${target.replace(/_id$/, '').replace('org', 'organization')}` });
      }
    }
  }
  if (issues.length) throw new ValidationError(issues);
}
