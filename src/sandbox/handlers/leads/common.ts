// Lookups shared by the lead handlers.
import { ApiError, forbidden, invalid } from '../../http/errors.js';
import { UUID } from '../../http/validate.js';
import type { Lead, User } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import { canSee } from '../../engine/access.js';

export const LEAD_READ = ['leads:read', 'leads:full'];
export const LEAD_WRITE = ['leads:full'];

/** 404 body of the v1 lead operations (the vendor's documents). */
export const leadNotFound = () =>
  new ApiError(404, 'requested lead not found', 'Object was not found.');

export function checkUuid(name: string, v: string): void {
  if (!UUID.test(v)) throw invalid(name, 'must be a UUID');
}

/** A live lead the user may access, or the service's 404/403. */
export function loadLead(state: SandboxState, user: User, id: string, notFound = leadNotFound): Lead {
  checkUuid('id', id);
  const lead = state.leads.get(id);
  if (!lead) throw notFound();
  if (!canSee(state, user, lead)) throw forbidden();
  return lead;
}

/** Response form of a lead: a copy, so later changes do not leak into a sent body. */
export const present = (l: Lead): Lead => structuredClone(l);
